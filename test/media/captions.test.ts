/** Captions: SubRip converted to WebVTT, WebVTT checked, each problem named with its place. */
import { describe, expect, it } from 'vitest';
import { captionsToWebVtt, checkWebVtt, srtToWebVtt } from '../../src/media/captions.js';
import { InvalidCaptionsError } from '../../src/media/errors.js';

const SRT = '\uFEFF1\r\n00:00:01,000 --> 00:00:02,500\r\nHello\r\n\r\n2\r\n00:01:02,5 --> 01:00:03,250 X1:10\r\nTwo\r\nlines\r\n';

describe('SubRip to WebVTT', () => {
  it('converts cues, times and line ends, dropping numbers and positions', () => {
    expect(srtToWebVtt(SRT)).toBe('WEBVTT\n\n00:00:01.000 --> 00:00:02.500\nHello\n\n00:01:02.500 --> 01:00:03.250\nTwo\nlines\n');
  });

  it('names each block that is not a cue, and a cue that ends before it starts', () => {
    const bad = '1\n00:00:05,000 --> 00:00:04,000\nBackwards\n\n2\nno timing here\n';
    expect(() => srtToWebVtt(bad)).toThrow(InvalidCaptionsError);
    try {
      srtToWebVtt(bad);
    } catch (error) {
      expect((error as InvalidCaptionsError).problems).toEqual([
        'block 1: the cue ends before it starts',
        'block 2: no "00:00:01,000 --> 00:00:02,500" timing',
      ]);
    }
    expect(() => srtToWebVtt('\n\n')).toThrow('the file has no cue');
  });
});

describe('WebVTT check', () => {
  it('accepts a good file, with a warning for cues out of order', () => {
    const vtt = 'WEBVTT - title\n\nNOTE a note\n\n1\n00:05.000 --> 00:06.000 align:start\nlate\n\n00:00:01.000 --> 00:00:02.000\nearly\n';
    expect(checkWebVtt(vtt)).toEqual({ errors: [], warnings: ['line 9: the cue starts before the one above it'] });
  });

  it('refuses a missing header, a bad timing, an empty file, and "-->" in cue text', () => {
    expect(checkWebVtt('00:00:01.000 --> 00:00:02.000\nx\n').errors).toEqual(['line 1: a WebVTT file starts with "WEBVTT"']);
    expect(checkWebVtt('WEBVTT\n\n00:00:01,000 --> 00:00:02.000\nx\n').errors).toEqual(['line 3: a cue timing reads "00:00:01.000 --> 00:00:02.500"']);
    expect(checkWebVtt('WEBVTT\n').errors).toEqual(['the file has no cue']);
    expect(checkWebVtt('WEBVTT\n\n00:00:01.000 --> 00:00:02.000\na --> b\n').errors).toEqual(['line 4: cue text cannot contain "-->"']);
  });

  it('takes either kind by name or by content, and throws for an unusable file', () => {
    expect(captionsToWebVtt(SRT, 'en.srt').vtt).toMatch(/^WEBVTT\n/);
    expect(captionsToWebVtt(SRT).vtt).toMatch(/^WEBVTT\n/);
    const vtt = 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nhi\n';
    expect(captionsToWebVtt(vtt, 'en.vtt')).toEqual({ vtt, warnings: [] });
    expect(() => captionsToWebVtt('not captions at all', 'en.vtt')).toThrow(/starts with "WEBVTT"/);
  });
});
