/**
 * Reads ffmpeg's `-progress` output (blocks of `key=value` lines, each closed by
 * `progress=continue` or `progress=end`) into the fraction of a run done: the time written so far
 * over the media's length, between 0 and 1, never going back.
 */

/** A line handler for one run of `mediaSeconds` of media; calls `onFraction` at the end of each block. */
export function progressReader(mediaSeconds: number, onFraction: (fraction: number) => void): (line: string) => void {
  let microseconds = 0;
  let reported = 0;
  return (line) => {
    const equals = line.indexOf('=');
    if (equals < 0) return;
    const key = line.slice(0, equals);
    const value = line.slice(equals + 1).trim();
    // `out_time_ms` is microseconds too (an old misnomer); newer versions add `out_time_us`.
    if (key === 'out_time_us' || key === 'out_time_ms') {
      const parsed = Number(value);
      if (Number.isFinite(parsed) && parsed > microseconds) microseconds = parsed;
    } else if (key === 'progress') {
      const fraction = value === 'end' ? 1 : mediaSeconds > 0 ? Math.min(1, microseconds / 1e6 / mediaSeconds) : 0;
      if (fraction > reported) {
        reported = fraction;
        onFraction(fraction);
      }
    }
  };
}
