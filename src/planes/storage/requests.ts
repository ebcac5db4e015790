/** What a file API request names: a zone, and a path in it (a directory when it ends with `/`). */
import { errors } from '../../domain/errors.js';
import { type ZonePath, zonePath } from '../../domain/files/paths.js';

export interface FileRequestTarget {
  zoneName: string;
  target: ZonePath;
}

export function targetOf(url: string): FileRequestTarget {
  const query = url.indexOf('?');
  const pathname = query < 0 ? url : url.slice(0, query);
  const raw = pathname.split('/');
  // ['', zone, ...path]: a path ending in '/' leaves a last empty segment.
  const zoneName = decode(raw[1] ?? '');
  if (zoneName === '') throw errors.validation('path', 'The path must start with the storage zone name.', 'storage.zone_missing');
  const rest = raw.slice(2);
  const isDirectory = rest.length === 0 || rest.at(-1) === '';
  return { zoneName, target: zonePath(rest.map(decode), isDirectory) };
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw errors.validation('path', 'The path holds a malformed percent-encoding.', 'storage.path_invalid');
  }
}
