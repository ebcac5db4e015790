/** The media type of a file from its name (the mime-db database), for the planes that serve files. */
import { mimeTypes } from '../../files/media-types.js';

const FALLBACK = 'application/octet-stream';

export function contentTypeOf(path: string): string {
  const mime = mimeTypes();
  const type = mime.lookup(path);
  if (!type) return FALLBACK;
  const charset = mime.charset(type);
  return charset ? `${type}; charset=${charset.toLowerCase()}` : type;
}
