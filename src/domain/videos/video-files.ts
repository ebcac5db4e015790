/** The files of one video in its library's storage zone: everything under `{guid}/`. */
import type { FileRecord } from '../../store/types.js';
import type { FileService } from '../files/service.js';
import type { ZoneAccess } from '../files/types.js';

const PAGE = 1000;

/** A name under `{guid}/` in an HLS rendition's folder (`720p/…`): its resolution. */
export const HLS_FILE = /^(\d{3,4}p)\//;
/** A rendition's MP4 fallback (`play_720p.mp4`): its resolution. */
export const MP4_FILE = /^play_(\d{3,4}p)\.mp4$/;

/** Every file (no folders) under `{guid}/`, in path order. */
export async function filesOfVideo(files: FileService, zone: Pick<ZoneAccess, 'zoneId'>, guid: string): Promise<FileRecord[]> {
  const out: FileRecord[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await files.listInKeyOrder(zone, `${guid}/`, after, PAGE);
    out.push(...page);
    if (page.length < PAGE) return out;
    after = page.at(-1)?.path;
  }
}

/** Bytes of the files under `{guid}/`. */
export async function bytesOfVideo(files: FileService, zone: Pick<ZoneAccess, 'zoneId'>, guid: string): Promise<number> {
  return (await filesOfVideo(files, zone, guid)).reduce((sum, f) => sum + f.size, 0);
}
