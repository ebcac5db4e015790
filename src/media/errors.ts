/**
 * What can go wrong with media, each a type of its own with a message a person can act on: a file
 * ffmpeg cannot read, an ffmpeg run that failed (with its last words), no usable ffmpeg at all, a
 * captions file that is not one.
 */

/** The source is not a video ffmpeg can read (garbage, truncated, audio only, a still image). */
export class UnreadableMediaError extends Error {
  override readonly name = 'UnreadableMediaError';
}

/** An ffmpeg or ffprobe run ended badly; `stderr` holds its last lines, `step` what it was making. */
export class MediaProcessError extends Error {
  override readonly name = 'MediaProcessError';
  constructor(
    readonly step: string,
    readonly exitCode: number | null,
    readonly signal: NodeJS.Signals | null,
    readonly stderr: string[],
  ) {
    const how = signal !== null ? `was killed by ${signal}` : `exited with code ${exitCode}`;
    const tail = stderr.length > 0 ? `: ${stderr.join(' | ')}` : '';
    super(`ffmpeg (${step}) ${how}${tail}`);
  }
}

/** No ffmpeg or ffprobe could be run: named paths that do not work, or none found anywhere. */
export class MediaToolsMissingError extends Error {
  override readonly name = 'MediaToolsMissingError';
}

/** A captions file that cannot be used; `problems` lists each, with its line where known. */
export class InvalidCaptionsError extends Error {
  override readonly name = 'InvalidCaptionsError';
  constructor(readonly problems: string[]) {
    super(`Invalid captions: ${problems.join('; ')}`);
  }
}
