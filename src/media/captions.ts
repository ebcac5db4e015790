/**
 * Captions as players read them: WebVTT. An uploaded SubRip (`.srt`) file is converted; a WebVTT
 * file is checked. Problems that make a file unusable are errors (with their line), oddities a
 * player copes with are warnings: the two lists the video API's caption validation answers with.
 * Pure text work.
 */
import { InvalidCaptionsError } from './errors.js';

export interface CaptionsCheck {
  errors: string[];
  warnings: string[];
}

/** `01:02:03.456` or `02:03.456` (WebVTT); SubRip's comma and short fractions are accepted where said. */
const VTT_TIME = /^(?:(\d{2,}):)?([0-5]\d):([0-5]\d)\.(\d{3})$/;
const SRT_TIME = /^(\d{1,}):([0-5]?\d):([0-5]?\d)[,.](\d{1,3})$/;

function seconds(match: RegExpExecArray): number {
  const [, h, m, s, fraction] = match;
  return Number(h ?? 0) * 3600 + Number(m) * 60 + Number(s) + Number(fraction!.padEnd(3, '0')) / 1000;
}

function vttTime(total: number): string {
  const ms = Math.round(total * 1000);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}.${pad(ms % 1000, 3)}`;
}

const lines = (text: string) =>
  text
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .split('\n');

/** Checks a WebVTT file: the header, every cue's timing, the order of cues. */
export function checkWebVtt(text: string): CaptionsCheck {
  const errors: string[] = [];
  const warnings: string[] = [];
  const all = lines(text);
  if (!/^WEBVTT(?:[ \t].*)?$/.test(all[0] ?? '')) errors.push('line 1: a WebVTT file starts with "WEBVTT"');
  let cues = 0;
  let previousStart = -1;
  let inCue = false;
  all.forEach((line, index) => {
    const at = `line ${index + 1}`;
    if (line.trim() === '') {
      inCue = false;
      return;
    }
    if (!line.includes('-->')) return;
    if (inCue) {
      errors.push(`${at}: cue text cannot contain "-->"`);
      return;
    }
    const [startText, rest] = line.split('-->').map((part) => part.trim());
    const endText = rest?.split(/\s+/)[0] ?? '';
    const start = VTT_TIME.exec(startText ?? '');
    const end = VTT_TIME.exec(endText);
    if (!start || !end) {
      errors.push(`${at}: a cue timing reads "00:00:01.000 --> 00:00:02.500"`);
      return;
    }
    inCue = true;
    cues += 1;
    if (seconds(end) <= seconds(start)) errors.push(`${at}: the cue ends before it starts`);
    if (seconds(start) < previousStart) warnings.push(`${at}: the cue starts before the one above it`);
    previousStart = seconds(start);
  });
  if (cues === 0 && errors.length === 0) errors.push('the file has no cue');
  return { errors, warnings };
}

/** Converts SubRip to WebVTT; throws InvalidCaptionsError naming each block that is not a cue. */
export function srtToWebVtt(text: string): string {
  const problems: string[] = [];
  const cues: string[] = [];
  const blocks = lines(text)
    .join('\n')
    .split(/\n[ \t]*\n/)
    .map((block) => block.split('\n').filter((line, i) => i > 0 || line.trim() !== ''));
  blocks.forEach((block, index) => {
    if (block.every((line) => line.trim() === '')) return;
    const timingAt = block.findIndex((line) => line.includes('-->'));
    const timing = timingAt >= 0 ? block[timingAt]!.split('-->').map((part) => part.trim().split(/\s+/)[0] ?? '') : [];
    const start = SRT_TIME.exec(timing[0] ?? '');
    const end = SRT_TIME.exec(timing[1] ?? '');
    if (timingAt < 0 || timingAt > 1 || !start || !end) {
      problems.push(`block ${index + 1}: no "00:00:01,000 --> 00:00:02,500" timing`);
      return;
    }
    if (seconds(end) <= seconds(start)) problems.push(`block ${index + 1}: the cue ends before it starts`);
    const body = block.slice(timingAt + 1).map((line) => line.replaceAll('-->', '->'));
    while (body.at(-1)?.trim() === '') body.pop();
    cues.push([`${vttTime(seconds(start))} --> ${vttTime(seconds(end))}`, ...body].join('\n'));
  });
  if (cues.length === 0 && problems.length === 0) problems.push('the file has no cue');
  if (problems.length > 0) throw new InvalidCaptionsError(problems);
  return `WEBVTT\n\n${cues.join('\n\n')}\n`;
}

/**
 * An uploaded captions file as WebVTT, with the warnings found: SubRip is converted, WebVTT checked
 * (and passed on as it is). Which one it is comes from the file name, else from its first line.
 * Throws InvalidCaptionsError for a file that cannot be used.
 */
export function captionsToWebVtt(text: string, fileName = ''): { vtt: string; warnings: string[] } {
  const isSrt = /\.srt$/i.test(fileName) || (!/\.vtt$/i.test(fileName) && !/^\uFEFF?WEBVTT/.test(text));
  const vtt = isSrt ? srtToWebVtt(text) : text;
  const { errors, warnings } = checkWebVtt(vtt);
  if (errors.length > 0) throw new InvalidCaptionsError(errors);
  return { vtt, warnings };
}
