/**
 * What is counted of a video's playback (subject `video:<guid>`) and of its library's (subject
 * `videoLibrary:<id>`, see video-libraries/statistics.ts): views, seconds watched, and per video
 * how often each media segment was served (the heatmap).
 */
export const videoSubject = (guid: string) => `video:${guid}`;

/** Views started (a master playlist, or an MP4 fallback from its first byte). */
export const VIEWS = 'views';
/** Seconds of the video served as media segments. */
export const WATCHED_SECONDS = 'watch.seconds';
/** The video's length, added for each view: what `watch.seconds` would be if every view went to the end. */
export const OFFERED_SECONDS = 'offered.seconds';
/** How often segment N of the video was served (`segment.0`, `segment.1`…). */
export const segmentMetric = (index: number) => `segment.${index}`;
