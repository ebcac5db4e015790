/**
 * Captions files as players read them: WebVTT is kept as sent (after a look at its header and cue
 * timings); SubRip, the other common format, is rewritten as WebVTT (its header added, the commas
 * of its timestamps made dots).
 */
export type CaptionsCheck = { ok: true; text: string; warnings: string[] } | { ok: false; error: string };

const CUE_TIMING = /(\d{1,2}:)?\d{2}:\d{2}[.,]\d{3}\s+-->\s+(\d{1,2}:)?\d{2}:\d{2}[.,]\d{3}/;

export function captionsAsVtt(source: string): CaptionsCheck {
  const text = source.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  if (text.trim() === '') return { ok: false, error: 'The captions file is empty.' };
  if (text.includes('\u0000')) return { ok: false, error: 'The captions file is not text.' };
  const warnings: string[] = [];
  if (/^WEBVTT(\s|$)/.test(text)) {
    if (!CUE_TIMING.test(text)) warnings.push('The file has no cues.');
    return { ok: true, text, warnings };
  }
  if (!CUE_TIMING.test(text))
    return { ok: false, error: 'The captions file is neither WebVTT (it starts with WEBVTT) nor SubRip (numbered cues with timings).' };
  const converted = text.replace(/(\d{2}:\d{2}:\d{2}),(\d{3})/g, '$1.$2');
  return { ok: true, text: `WEBVTT\n\n${converted}`, warnings };
}
