/**
 * The library a partial update leads to. Fields sent as null or left out stay as they are; the
 * rules that tie fields together are checked on the resulting library, and a refusal names the
 * field the client sent (or, when the clash comes from a stored value, the field that changed).
 * Pure: no I/O, no framework.
 */
import { FREE_TIER_CODECS, OUTPUT_CODECS, type VideoLibraryT, type VideoLibraryUpdateRequestT } from '../../schemas/video-library.js';
import { errors } from '../errors.js';
import { normalizeCsv } from './defaults.js';

/** Request fields that are not copied onto the library as they are. */
const NOT_COPIED = new Set(['DrmSchemeA', 'DrmSchemeB', 'EnabledResolutions', 'OutputCodecs']);

const GENERATION_FEATURES = [
  'EnableTranscribingTitleGeneration',
  'EnableTranscribingDescriptionGeneration',
  'EnableTranscribingChaptersGeneration',
  'EnableTranscribingMomentsGeneration',
] as const;

/** Codecs each encoding tier may produce (index = EncodingTier). */
const CODECS_BY_TIER: readonly (readonly string[])[] = [FREE_TIER_CODECS, OUTPUT_CODECS];

export function applyLibraryUpdate(current: VideoLibraryT, input: VideoLibraryUpdateRequestT, now: Date): VideoLibraryT {
  const next: VideoLibraryT = structuredClone(current);
  const target = next as Record<string, unknown>;
  for (const [field, value] of Object.entries(input)) {
    if (value != null && field in next && !NOT_COPIED.has(field)) target[field] = value;
  }
  if (input.EnabledResolutions != null) next.EnabledResolutions = normalizeCsv(input.EnabledResolutions);
  if (input.OutputCodecs != null) next.OutputCodecs = normalizeCsv(input.OutputCodecs);
  if (input.DrmSchemeA != null && input.DrmSchemeA.Enabled != null) next.DrmSchemeA.Enabled = input.DrmSchemeA.Enabled;
  if (input.DrmSchemeB != null) {
    const b = input.DrmSchemeB;
    if (b.Enabled != null) next.DrmSchemeB.Enabled = b.Enabled;
    if (b.SdOnlyForL3 != null) next.DrmSchemeB.SdOnlyForL3 = b.SdOnlyForL3;
    if (b.MinClientSecurityLevel != null) next.DrmSchemeB.MinClientSecurityLevel = b.MinClientSecurityLevel;
  }
  next.DateModified = now.toISOString();

  applyTranscribingRule(next, input);
  applyEarlyPlayRule(next, input);
  checkEncodingOptions(next, input);
  checkDrmSchemes(next, input);
  return next;
}

/** Generation features work from a transcript: on turns transcribing on, transcribing off turns them off. */
function applyTranscribingRule(next: VideoLibraryT, input: VideoLibraryUpdateRequestT): void {
  if (input.EnableTranscribing === false) {
    const clash = GENERATION_FEATURES.find((f) => input[f] === true);
    if (clash) {
      throw errors.validation(
        clash,
        `${clash} needs transcribing, which this request switches off (EnableTranscribing false).`,
        'videolibrary.transcribing_required',
      );
    }
    for (const f of GENERATION_FEATURES) next[f] = false;
  } else if (GENERATION_FEATURES.some((f) => next[f])) {
    next.EnableTranscribing = true;
  }
}

/** Early play serves the original file while encoding runs, so it needs the originals exposed. */
function applyEarlyPlayRule(next: VideoLibraryT, input: VideoLibraryUpdateRequestT): void {
  if (next.AllowEarlyPlay !== true) return;
  if (input.ExposeOriginals === false) {
    throw errors.validation(
      'ExposeOriginals',
      'Early play serves the original files, so ExposeOriginals stays true while AllowEarlyPlay is on.',
      'videolibrary.originals_required',
    );
  }
  next.ExposeOriginals = true;
}

export interface EncodingOptions {
  EncodingTier: 0 | 1;
  OutputCodecs: string | null;
  JitEncodingEnabled: boolean;
}

/**
 * The encoding tier decides what the library may ask for: the free tier (0) encodes with x264
 * only, the premium tier (1) adds vp9, hevc and av1, and just-in-time encoding is premium-only.
 * The request schema has already limited OutputCodecs to known codec names.
 */
export function checkEncodingOptions(result: EncodingOptions, sent: Partial<Record<keyof EncodingOptions, unknown>>): void {
  const allowed = CODECS_BY_TIER[result.EncodingTier] ?? FREE_TIER_CODECS;
  if (result.OutputCodecs != null) {
    const refused = normalizeCsv(result.OutputCodecs)
      .split(',')
      .filter((c) => !allowed.includes(c));
    if (refused.length > 0) {
      throw errors.validation(
        sent.OutputCodecs != null ? 'OutputCodecs' : 'EncodingTier',
        `The free encoding tier (EncodingTier 0) supports only x264; ${refused.join(', ')} require${refused.length === 1 ? 's' : ''} the premium tier (EncodingTier 1).`,
        'videolibrary.output_codecs_invalid',
      );
    }
  }
  if (result.JitEncodingEnabled && result.EncodingTier !== 1) {
    throw errors.validation(
      sent.JitEncodingEnabled === true ? 'JitEncodingEnabled' : 'EncodingTier',
      'Just-in-time encoding is available on the premium encoding tier (EncodingTier 1) only.',
      'videolibrary.jit_encoding_requires_premium',
    );
  }
}

/** The two DRM schemes run on enterprise DRM only (DrmVersion 1). */
function checkDrmSchemes(next: VideoLibraryT, input: VideoLibraryUpdateRequestT): void {
  if (next.DrmVersion === 1 || (!next.DrmSchemeA.Enabled && !next.DrmSchemeB.Enabled)) return;
  const field = input.DrmSchemeA?.Enabled === true ? 'DrmSchemeA.Enabled' : input.DrmSchemeB?.Enabled === true ? 'DrmSchemeB.Enabled' : 'DrmVersion';
  throw errors.validation(field, 'DRM schemes A and B work with enterprise DRM (DrmVersion 1) only.', 'videolibrary.drm_scheme_requires_enterprise');
}
