import { describe, expect, it } from 'vitest';
import { newVideoLibrary } from '../../src/domain/video-libraries/defaults.js';
import { VideoLibrary, VideoLibraryAddRequest, VideoLibraryLanguage, VideoLibraryUpdateRequest } from '../../src/schemas/video-library.js';
import { schemaAjv } from '../helpers/schema-ajv.js';

const ajv = schemaAjv();
const validateLibrary = ajv.compile(VideoLibrary);
const validateAdd = ajv.compile(VideoLibraryAddRequest);
const validateUpdate = ajv.compile(VideoLibraryUpdateRequest);
const validateLanguage = ajv.compile(VideoLibraryLanguage);

/** Spec 2.3, in table order; `true` marks the fields the spec types as "or null". */
const SPEC_FIELDS: Record<string, boolean> = {
  Id: false,
  Name: true,
  VideoCount: false,
  TrafficUsage: false,
  StorageUsage: false,
  DateCreated: false,
  DateModified: false,
  ReplicationRegions: true,
  ApiKey: true,
  ReadOnlyApiKey: true,
  HasWatermark: false,
  WatermarkPositionLeft: false,
  WatermarkPositionTop: false,
  WatermarkWidth: false,
  WatermarkHeight: false,
  WatermarkVersion: false,
  PullZoneId: false,
  StorageZoneId: false,
  EnabledResolutions: true,
  AdPublisherId: true,
  VastTagUrl: true,
  WebhookUrl: true,
  CaptionsFontSize: false,
  CaptionsFontColor: true,
  CaptionsBackground: true,
  FontFamily: true,
  UILanguage: true,
  AllowEarlyPlay: true,
  PlayerTokenAuthenticationEnabled: false,
  AllowedReferrers: true,
  BlockedReferrers: true,
  BlockNoneReferrer: false,
  EnableMP4Fallback: false,
  KeepOriginalFiles: false,
  AllowDirectPlay: false,
  EnableDRM: false,
  DrmVersion: false,
  DrmSchemeA: false,
  DrmSchemeB: false,
  Bitrate240p: false,
  Bitrate360p: false,
  Bitrate480p: false,
  Bitrate720p: false,
  Bitrate1080p: false,
  Bitrate1440p: false,
  Bitrate2160p: false,
  ApiAccessKey: true,
  ShowHeatmap: false,
  EnableContentTagging: false,
  PullZoneType: false,
  CustomHTML: true,
  Controls: true,
  PlaybackSpeeds: true,
  PlayerKeyColor: true,
  EnableTranscribing: false,
  EnableTranscribingTitleGeneration: false,
  EnableTranscribingDescriptionGeneration: false,
  EnableTranscribingChaptersGeneration: false,
  EnableTranscribingMomentsGeneration: false,
  TranscribingCaptionLanguages: true,
  EnableCaptionsInPlaylist: true,
  RememberPlayerPosition: false,
  EnableMultiAudioTrackSupport: false,
  UseSeparateAudioStream: false,
  JitEncodingEnabled: false,
  EncodingTier: false,
  OutputCodecs: true,
  DrmBasePriceOverride: true,
  DrmCostPerLicenseOverride: true,
  TranscribingPriceOverride: true,
  PremiumEncodingPriceOverride: true,
  MonthlyChargesTranscribing: false,
  MonthlyChargesPremiumEncoding: false,
  MonthlyChargesEnterpriseDrm: false,
  FeatureFlags: true,
  PlayerVersion: false,
  RemoveMetadataFromFallbackVideos: false,
  ScaleVideoUsingBothDimensions: false,
  ExposeOriginals: false,
  ExposeVideoMetadata: false,
  EnableCompactControls: false,
};

const VENDOR_WORDS = /bunny|apple|google|widevine|fairplay|vi\.ai|viai/i;

type Json = Record<string, unknown>;
const props = (schema: unknown) => (schema as { properties: Record<string, Json> }).properties;
const required = (schema: unknown) => (schema as { required?: string[] }).required ?? [];
const allowsNull = (s: Json) => (Array.isArray(s['type']) ? (s['type'] as string[]).includes('null') : s['type'] === 'null');

/** Every property name and description anywhere in a schema. */
function words(schema: unknown, out: string[] = []): string[] {
  if (Array.isArray(schema)) for (const s of schema) words(s, out);
  else if (schema !== null && typeof schema === 'object') {
    const o = schema as Json;
    if (typeof o['description'] === 'string') out.push(o['description']);
    if (o['properties'] && typeof o['properties'] === 'object') out.push(...Object.keys(o['properties'] as Json));
    for (const v of Object.values(o)) words(v, out);
  }
  return out;
}

const library = () =>
  newVideoLibrary({
    id: 7,
    name: 'lectures',
    pullZoneId: 11,
    storageZoneId: 13,
    replicationRegions: ['NY', 'SYD'],
    apiKey: 'k-rw',
    readOnlyApiKey: 'k-ro',
    now: new Date('2025-01-02T03:04:05.000Z'),
  });

describe('VideoLibrary response schema', () => {
  it("lists every field of spec 2.3, with the spec's nullability", () => {
    const p = props(VideoLibrary);
    for (const [name, nullable] of Object.entries(SPEC_FIELDS)) {
      expect(p, name).toHaveProperty(name);
      expect(allowsNull(p[name]!), `${name} nullable`).toBe(nullable);
    }
  });

  it('requires every property', () => {
    expect([...required(VideoLibrary)].sort()).toEqual(Object.keys(props(VideoLibrary)).sort());
    expect([...required(props(VideoLibrary)['DrmSchemeB'])].sort()).toEqual([
      'CertificateExpirationDate',
      'CertificateId',
      'Enabled',
      'MinClientSecurityLevel',
      'Provider',
      'SdOnlyForL3',
    ]);
  });

  it('accepts the defaults of a new library', () => {
    const lib = library();
    expect(validateLibrary(lib), JSON.stringify(validateLibrary.errors)).toBe(true);
    expect(Object.keys(lib).sort()).toEqual(Object.keys(props(VideoLibrary)).sort());
    expect(lib.ApiAccessKey).toBe(lib.ApiKey);
    expect(lib.DateCreated).toBe('2025-01-02T03:04:05.000Z');
    expect(lib.EnabledResolutions).toBe('240p,360p,480p,720p,1080p');
    expect(lib.OutputCodecs).toBe('x264');
    expect(lib.EncodingTier).toBe(0);
    expect(lib.ScaleVideoUsingBothDimensions).toBe(true);
    expect(lib.RemoveMetadataFromFallbackVideos).toBe(false);
    expect(lib.DrmSchemeA.Enabled).toBe(false);
    expect(lib.DrmSchemeB.CertificateId).toBe(0);
  });

  it('applies create options over the defaults', () => {
    const lib = newVideoLibrary({
      id: 1,
      name: 'x',
      pullZoneId: 2,
      storageZoneId: 3,
      replicationRegions: [],
      apiKey: 'a',
      readOnlyApiKey: 'b',
      now: new Date(0),
      settings: { EncodingTier: 1, OutputCodecs: 'x264, av1', EnableTranscribingChaptersGeneration: true, AllowEarlyPlay: true, KeepOriginalFiles: null },
    });
    expect(validateLibrary(lib)).toBe(true);
    expect(lib.EncodingTier).toBe(1);
    expect(lib.OutputCodecs).toBe('x264,av1');
    expect(lib.EnableTranscribing).toBe(true);
    expect(lib.ExposeOriginals).toBe(true);
    expect(lib.KeepOriginalFiles).toBe(true);
  });

  it('rejects values outside the enums', () => {
    expect(validateLibrary({ ...library(), DrmVersion: 3 })).toBe(false);
    expect(validateLibrary({ ...library(), EncodingTier: 2 })).toBe(false);
    expect(validateLibrary({ ...library(), PullZoneType: 2 })).toBe(false);
    expect(validateLibrary({ ...library(), DrmSchemeA: null })).toBe(false);
  });

  it('validates a language item', () => {
    expect(validateLanguage({ ShortCode: 'en', Name: 'English', SupportPlayerTranslation: true, SupportTranscribing: true, TranscribingAccuracy: 90 })).toBe(
      true,
    );
    expect(validateLanguage({ ShortCode: null, Name: null, SupportPlayerTranslation: false, SupportTranscribing: false })).toBe(false);
  });
});

describe('VideoLibraryAddRequest', () => {
  it('requires a non-empty Name', () => {
    expect(validateAdd({ Name: 'a' })).toBe(true);
    expect(validateAdd({ Name: '' })).toBe(false);
    expect(validateAdd({})).toBe(false);
    expect(validateAdd({ Name: null })).toBe(false);
  });

  it('checks replication regions', () => {
    expect(validateAdd({ Name: 'a', ReplicationRegions: ['SYD', 'NY'] })).toBe(true);
    expect(validateAdd({ Name: 'a', ReplicationRegions: null })).toBe(true);
    expect(validateAdd({ Name: 'a', ReplicationRegions: ['XX'] })).toBe(false);
    expect(validateAdd({ Name: 'a', ReplicationRegions: ['NY', 'NY'] })).toBe(false);
  });

  it('accepts comma-separated lists of the known codecs only', () => {
    for (const ok of ['x264', 'x264,vp9', 'x264,vp9,hevc,av1', 'av1', 'x264, hevc']) expect(validateAdd({ Name: 'a', OutputCodecs: ok }), ok).toBe(true);
    for (const bad of ['', 'h264', 'x264,', ',x264', 'x264;vp9', 'X264']) expect(validateAdd({ Name: 'a', OutputCodecs: bad }), bad).toBe(false);
    expect(validateAdd({ Name: 'a', OutputCodecs: null })).toBe(true);
  });

  it('checks tier and resolutions', () => {
    expect(validateAdd({ Name: 'a', EncodingTier: 1 })).toBe(true);
    expect(validateAdd({ Name: 'a', EncodingTier: 2 })).toBe(false);
    expect(validateAdd({ Name: 'a', EnabledResolutions: '240p,2160p' })).toBe(true);
    expect(validateAdd({ Name: 'a', EnabledResolutions: '4k' })).toBe(false);
  });

  it('rejects unknown fields', () => {
    expect(validateAdd({ Name: 'a', Bogus: 1 })).toBe(false);
  });
});

describe('VideoLibraryUpdateRequest', () => {
  it('has every field optional and accepts nulls', () => {
    expect(validateUpdate({})).toBe(true);
    const allNull = Object.fromEntries(Object.keys(props(VideoLibraryUpdateRequest)).map((k) => [k, null]));
    expect(validateUpdate(allNull), JSON.stringify(validateUpdate.errors)).toBe(true);
  });

  it('checks enums, codecs and DRM scheme objects', () => {
    expect(validateUpdate({ DrmVersion: 2 })).toBe(true);
    expect(validateUpdate({ DrmVersion: 3 })).toBe(false);
    expect(validateUpdate({ DrmVersion: -1 })).toBe(false);
    expect(validateUpdate({ EncodingTier: 2 })).toBe(false);
    expect(validateUpdate({ OutputCodecs: 'vp9,hevc' })).toBe(true);
    expect(validateUpdate({ OutputCodecs: 'mpeg2' })).toBe(false);
    expect(validateUpdate({ DrmSchemeA: { Enabled: true } })).toBe(true);
    expect(validateUpdate({ DrmSchemeB: { Enabled: true, SdOnlyForL3: true, MinClientSecurityLevel: 3 } })).toBe(true);
    expect(validateUpdate({ DrmSchemeB: { MinClientSecurityLevel: 4 } })).toBe(false);
    expect(validateUpdate({ DrmSchemeA: { Enabled: true, Other: 1 } })).toBe(false);
    expect(validateUpdate({ Name: '' })).toBe(false);
    expect(validateUpdate({ Unknown: true })).toBe(false);
  });
});

describe('neutral names', () => {
  it('no property name or description carries a vendor word', () => {
    for (const schema of [VideoLibrary, VideoLibraryAddRequest, VideoLibraryUpdateRequest, VideoLibraryLanguage]) {
      for (const w of words(schema)) expect(w).not.toMatch(VENDOR_WORDS);
    }
    expect(JSON.stringify(library())).not.toMatch(VENDOR_WORDS);
    expect(props(VideoLibrary)).toHaveProperty('AdPublisherId');
    expect(props(VideoLibraryUpdateRequest)).toHaveProperty('DrmSchemeA');
    expect(props(VideoLibraryUpdateRequest)).toHaveProperty('DrmSchemeB');
  });
});
