import type { FileRecord } from '../../store/types.js';

/** The MD5 of the bytes, as S3 names objects' versions, quoted: one ETag for a file, whichever plane serves it. */
export const etagOf = (file: FileRecord) => `"${file.md5 ?? file.guid}"`;
