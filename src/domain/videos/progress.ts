/** How one progress report changes a stored video (pure: the service reads, applies, writes with the version it read). */
import { VideoStatus } from '../../schemas/video.js';
import type { VideoDoc, VideoProgress } from './types.js';

export function applyProgress(video: VideoDoc, change: VideoProgress, now: string, storageSize: number | undefined): VideoDoc {
  const next: VideoDoc = { ...video };
  const statusChanged = change.status !== undefined && change.status !== video.status;
  if (change.status !== undefined) next.status = change.status;
  if (change.encodeProgress !== undefined) {
    const value = Math.max(0, Math.min(100, Math.round(change.encodeProgress)));
    // A late report of an earlier step never moves the bar back; a new status (a re-encode) starts it over.
    next.encodeProgress = statusChanged ? value : Math.max(video.encodeProgress, value);
  }
  if (next.status === VideoStatus.Finished) next.encodeProgress = 100;
  if (change.availableResolutions !== undefined) next.availableResolutions = joinList(change.availableResolutions);
  if (change.resolutionFinished !== undefined) {
    const have = splitList(next.availableResolutions);
    if (!have.includes(change.resolutionFinished)) next.availableResolutions = joinList([...have, change.resolutionFinished]);
  }
  if (change.probe) {
    next.length = Math.max(0, Math.floor(change.probe.length));
    next.width = change.probe.width;
    next.height = change.probe.height;
    next.framerate = change.probe.framerate;
    next.rotation = change.probe.rotation;
  }
  if (change.message) {
    const { level, issueCode, message, value } = change.message;
    next.transcodingMessages = [...(video.transcodingMessages ?? []), { timeStamp: now, level, issueCode, message, value: value ?? null }];
  }
  if (change.thumbnailCount !== undefined) next.thumbnailCount = change.thumbnailCount;
  if (change.thumbnailFileName !== undefined) next.thumbnailFileName = change.thumbnailFileName;
  if (change.hasMP4Fallback !== undefined) next.hasMP4Fallback = change.hasMP4Fallback;
  if (change.hasOriginal !== undefined) next.hasOriginal = change.hasOriginal;
  if (change.originalHash !== undefined) next.originalHash = change.originalHash;
  if (change.outputCodecs !== undefined) next.outputCodecs = change.outputCodecs;
  if (storageSize !== undefined) next.storageSize = storageSize;
  return next;
}

/** `240p,720p` → [`240p`, `720p`]; null or empty → []. */
export const splitList = (csv: string | null | undefined): string[] =>
  (csv ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

const joinList = (values: string[]): string | null => (values.length > 0 ? values.join(',') : null);
