/**
 * A library's `VideoCount`, `StorageUsage` and `TrafficUsage`, counted when it is read: how many
 * videos it holds (the videos' index on their library), the bytes of its storage zone, where the
 * files of its videos are (the zone's own counter, exact after every write), and the bytes its
 * pull zone served (`traffic`, by pull zone id: the edge's usage counters).
 */
import type { VideoLibraryT } from '../../schemas/video-library.js';
import type { StoreTx } from '../../store/types.js';

export async function withFigures(tx: StoreTx, accountId: number, libraries: VideoLibraryT[], traffic: ReadonlyMap<number, number>): Promise<VideoLibraryT[]> {
  if (libraries.length === 0) return libraries;
  const usage = await tx.files.usage(libraries.map((l) => String(l.StorageZoneId)));
  return Promise.all(
    libraries.map(async (library) => {
      const videos = await tx.docs.list('video', accountId, { parentId: String(library.Id), offset: 0, limit: 0 });
      return {
        ...library,
        VideoCount: videos.total,
        StorageUsage: usage.get(String(library.StorageZoneId))?.bytes ?? 0,
        TrafficUsage: traffic.get(library.PullZoneId) ?? 0,
      };
    }),
  );
}
