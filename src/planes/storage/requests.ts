/** What a file API request names: a zone, and a path in it (a directory when it ends with `/`). */
import { errors } from '../../domain/errors.js';
import { type ZonePath, zonePath } from '../../domain/files/paths.js';

export interface FileRequestTarget {
  zoneName: string;
  target: ZonePath;
}

/**
 * Empty segments name nothing and are dropped, as the platform's storage servers drop them:
 * `/zone//a//b.txt` is `/zone/a/b.txt` (its own SDK joins the zone and a path starting with `/`
 * into `/<zone>//<path>`). A trailing `/` still names a directory. S3 keys stay literal (keyPath).
 */
export function targetOf(url: string): FileRequestTarget {
  const query = url.indexOf('?');
  const pathname = query < 0 ? url : url.slice(0, query);
  const segments = pathname.split('/').filter((segment) => segment !== '');
  const zoneName = decode(segments[0] ?? '');
  if (zoneName === '') throw errors.validation('path', 'The path must start with the storage zone name.', 'storage.zone_missing');
  const rest = segments.slice(1);
  const isDirectory = rest.length === 0 || pathname.endsWith('/');
  return { zoneName, target: zonePath(rest.map(decode), isDirectory) };
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw errors.validation('path', 'The path holds a malformed percent-encoding.', 'storage.path_invalid');
  }
}
