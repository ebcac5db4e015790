import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VideoLibrary } from '../../../src/schemas/video-library.js';
import { createTestApp, type TestContext } from '../../helpers/app.js';
import { schemaAjv } from '../../helpers/schema-ajv.js';

const ajv = schemaAjv();
const validateLibrary = ajv.compile(VideoLibrary);

/** Every field of spec 2.3. */
const SPEC_FIELDS = [
  'Id',
  'Name',
  'VideoCount',
  'TrafficUsage',
  'StorageUsage',
  'DateCreated',
  'DateModified',
  'ReplicationRegions',
  'ApiKey',
  'ReadOnlyApiKey',
  'HasWatermark',
  'WatermarkPositionLeft',
  'WatermarkPositionTop',
  'WatermarkWidth',
  'WatermarkHeight',
  'WatermarkVersion',
  'PullZoneId',
  'StorageZoneId',
  'EnabledResolutions',
  'AdPublisherId',
  'VastTagUrl',
  'WebhookUrl',
  'CaptionsFontSize',
  'CaptionsFontColor',
  'CaptionsBackground',
  'FontFamily',
  'UILanguage',
  'AllowEarlyPlay',
  'PlayerTokenAuthenticationEnabled',
  'AllowedReferrers',
  'BlockedReferrers',
  'BlockNoneReferrer',
  'EnableMP4Fallback',
  'KeepOriginalFiles',
  'AllowDirectPlay',
  'EnableDRM',
  'DrmVersion',
  'DrmSchemeA',
  'DrmSchemeB',
  'Bitrate240p',
  'Bitrate360p',
  'Bitrate480p',
  'Bitrate720p',
  'Bitrate1080p',
  'Bitrate1440p',
  'Bitrate2160p',
  'ApiAccessKey',
  'ShowHeatmap',
  'EnableContentTagging',
  'PullZoneType',
  'CustomHTML',
  'Controls',
  'PlaybackSpeeds',
  'PlayerKeyColor',
  'EnableTranscribing',
  'EnableTranscribingTitleGeneration',
  'EnableTranscribingDescriptionGeneration',
  'EnableTranscribingChaptersGeneration',
  'EnableTranscribingMomentsGeneration',
  'TranscribingCaptionLanguages',
  'EnableCaptionsInPlaylist',
  'RememberPlayerPosition',
  'EnableMultiAudioTrackSupport',
  'UseSeparateAudioStream',
  'JitEncodingEnabled',
  'EncodingTier',
  'OutputCodecs',
  'DrmBasePriceOverride',
  'DrmCostPerLicenseOverride',
  'TranscribingPriceOverride',
  'PremiumEncodingPriceOverride',
  'MonthlyChargesTranscribing',
  'MonthlyChargesPremiumEncoding',
  'MonthlyChargesEnterpriseDrm',
  'FeatureFlags',
  'PlayerVersion',
  'RemoveMetadataFromFallbackVideos',
  'ScaleVideoUsingBothDimensions',
  'ExposeOriginals',
  'ExposeVideoMetadata',
  'EnableCompactControls',
];

const CREDENTIAL = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{52}$/;
const ZONE_NAME = /^vz-(\d+)-[a-z0-9]{6}$/;

let t: TestContext;
// One app for the file (building one is most of a short test's time); each test works on resources of its own.
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('POST /videolibrary', () => {
  it('answers 201 with the full library of 2.3, readable again with GET', async () => {
    const res = await t.post('/videolibrary', { Name: 'Lectures' });
    expect(res.status).toBe(201);
    const lib = res.body;
    expect(validateLibrary(lib), JSON.stringify(validateLibrary.errors)).toBe(true);
    expect(Object.keys(lib).sort()).toEqual(Object.keys(VideoLibrary.properties).sort());
    for (const field of SPEC_FIELDS) expect(lib, field).toHaveProperty(field);

    const read = await t.get(`/videolibrary/${lib.Id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(lib);
  });

  it('gives a new library the platform defaults, group by group', async () => {
    const lib = (await t.post('/videolibrary', { Name: 'Lectures' })).body;
    // Identity and usage
    expect(lib).toMatchObject({ Name: 'Lectures', VideoCount: 0, TrafficUsage: 0, StorageUsage: 0, ReplicationRegions: [] });
    expect(lib.Id).toBeGreaterThan(0);
    expect(new Date(lib.DateCreated).toISOString()).toBe(lib.DateCreated);
    expect(lib.DateModified).toBe(lib.DateCreated);
    // Credentials: two distinct keys; the deprecated access key repeats the read-write one.
    expect(lib.ApiKey).toMatch(CREDENTIAL);
    expect(lib.ReadOnlyApiKey).toMatch(CREDENTIAL);
    expect(lib.ReadOnlyApiKey).not.toBe(lib.ApiKey);
    expect(lib.ApiAccessKey).toBe(lib.ApiKey);
    // Watermark
    expect(lib).toMatchObject({
      HasWatermark: false,
      WatermarkPositionLeft: 70,
      WatermarkPositionTop: 70,
      WatermarkWidth: 12,
      WatermarkHeight: 12,
      WatermarkVersion: 0,
    });
    // Links and pull zone type
    expect(lib.PullZoneId).toBeGreaterThan(0);
    expect(lib.StorageZoneId).toBeGreaterThan(0);
    expect(lib.PullZoneType).toBe(0);
    // Encoding
    expect(lib).toMatchObject({
      EnabledResolutions: '240p,360p,480p,720p,1080p',
      EncodingTier: 0,
      OutputCodecs: 'x264',
      JitEncodingEnabled: false,
      Bitrate240p: 600,
      Bitrate360p: 800,
      Bitrate480p: 1400,
      Bitrate720p: 2800,
      Bitrate1080p: 5000,
      Bitrate1440p: 8000,
      Bitrate2160p: 13000,
      EnableMP4Fallback: true,
      KeepOriginalFiles: true,
      AllowDirectPlay: true,
      EnableMultiAudioTrackSupport: false,
      UseSeparateAudioStream: false,
      RemoveMetadataFromFallbackVideos: false,
      ScaleVideoUsingBothDimensions: true,
    });
    // Player and captions
    expect(lib).toMatchObject({
      CaptionsFontSize: 20,
      CaptionsFontColor: '#fff',
      CaptionsBackground: '#000',
      FontFamily: null,
      UILanguage: 'en',
      AllowEarlyPlay: false,
      PlayerTokenAuthenticationEnabled: false,
      CustomHTML: null,
      PlayerKeyColor: '#ff7755',
      PlayerVersion: 2,
      ShowHeatmap: false,
      EnableContentTagging: false,
      RememberPlayerPosition: false,
      EnableCaptionsInPlaylist: false,
      ExposeOriginals: false,
      ExposeVideoMetadata: false,
      EnableCompactControls: false,
    });
    expect(lib.Controls).toContain('play');
    expect(lib.PlaybackSpeeds).toContain('1');
    // Advertising and webhooks
    expect(lib).toMatchObject({ AdPublisherId: null, VastTagUrl: null, WebhookUrl: null, FeatureFlags: null });
    // Referrers
    expect(lib).toMatchObject({ AllowedReferrers: [], BlockedReferrers: [], BlockNoneReferrer: false });
    // DRM
    expect(lib).toMatchObject({ EnableDRM: false, DrmVersion: 0 });
    expect(lib.DrmSchemeA).toEqual({ Enabled: false, CertificateId: 0, CertificateExpirationDate: expect.any(String), Provider: '' });
    expect(lib.DrmSchemeB).toMatchObject({ Enabled: false, CertificateId: 0, Provider: '', SdOnlyForL3: false });
    // Transcribing
    expect(lib).toMatchObject({
      EnableTranscribing: false,
      EnableTranscribingTitleGeneration: false,
      EnableTranscribingDescriptionGeneration: false,
      EnableTranscribingChaptersGeneration: false,
      EnableTranscribingMomentsGeneration: false,
      TranscribingCaptionLanguages: [],
    });
    // Pricing
    expect(lib).toMatchObject({
      DrmBasePriceOverride: null,
      DrmCostPerLicenseOverride: null,
      TranscribingPriceOverride: null,
      PremiumEncodingPriceOverride: null,
      MonthlyChargesTranscribing: 0,
      MonthlyChargesPremiumEncoding: 0,
      MonthlyChargesEnterpriseDrm: 0,
    });
  });

  it('applies the create options', async () => {
    const res = await t.post('/videolibrary', {
      Name: 'Options',
      PlayerVersion: 1,
      EncodingTier: 1,
      JitEncodingEnabled: true,
      OutputCodecs: 'x264, vp9',
      EnabledResolutions: '720p, 1080p,720p',
      BlockNoneReferrer: true,
      EnableMP4Fallback: false,
      KeepOriginalFiles: false,
      AllowDirectPlay: false,
      EnableMultiAudioTrackSupport: true,
      TranscribingCaptionLanguages: ['en', 'de'],
      EnableTranscribingChaptersGeneration: true,
      AllowEarlyPlay: true,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      PlayerVersion: 1,
      EncodingTier: 1,
      JitEncodingEnabled: true,
      OutputCodecs: 'x264,vp9',
      EnabledResolutions: '720p,1080p',
      BlockNoneReferrer: true,
      EnableMP4Fallback: false,
      KeepOriginalFiles: false,
      AllowDirectPlay: false,
      EnableMultiAudioTrackSupport: true,
      TranscribingCaptionLanguages: ['en', 'de'],
      // A generation feature needs a transcript, and early play needs the originals.
      EnableTranscribingChaptersGeneration: true,
      EnableTranscribing: true,
      AllowEarlyPlay: true,
      ExposeOriginals: true,
    });
    const zone = (await t.get(`/pullzone/${res.body.PullZoneId}`)).body;
    expect(zone.BlockNoneReferrer).toBe(true);
  });

  it('binds body property names case-insensitively', async () => {
    const res = await t.post('/videolibrary', { name: 'lib', encodingtier: 1, OUTPUTCODECS: 'hevc' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ Name: 'lib', EncodingTier: 1, OutputCodecs: 'hevc' });
  });

  it('creates and links its own storage zone and pull zone', async () => {
    const lib = (await t.post('/videolibrary', { Name: 'Linked', ReplicationRegions: ['NY', 'SYD'] })).body;

    const storage = await t.get(`/storagezone/${lib.StorageZoneId}`);
    expect(storage.status).toBe(200);
    expect(storage.body).toMatchObject({ Id: lib.StorageZoneId, Region: 'DE', ReplicationRegions: ['NY', 'SYD'], Deleted: false });
    expect(storage.body.Name).toMatch(ZONE_NAME);
    expect(ZONE_NAME.exec(storage.body.Name)?.[1]).toBe(String(lib.Id));
    expect(storage.body.PullZones).toHaveLength(1);
    expect(storage.body.PullZones[0]).toMatchObject({ Id: lib.PullZoneId, VideoLibraryId: lib.Id, StorageZoneId: lib.StorageZoneId });

    const pull = await t.get(`/pullzone/${lib.PullZoneId}`);
    expect(pull.status).toBe(200);
    expect(pull.body).toMatchObject({ Id: lib.PullZoneId, StorageZoneId: lib.StorageZoneId, OriginType: 2, VideoLibraryId: lib.Id, Type: 0 });
    expect(pull.body.Name).toMatch(ZONE_NAME);
    expect(lib.ReplicationRegions).toEqual(['NY', 'SYD']);
  });

  it("keeps DE, the main region of the library's storage, out of the replication regions", async () => {
    const lib = (await t.post('/videolibrary', { Name: 'Everywhere', ReplicationRegions: ['DE', 'LA', 'SG'] })).body;
    expect(lib.ReplicationRegions).toEqual(['LA', 'SG']);
    const storage = (await t.get(`/storagezone/${lib.StorageZoneId}`)).body;
    expect(storage).toMatchObject({ Region: 'DE', ReplicationRegions: ['LA', 'SG'] });
  });

  it('gives each library its own zones and ids', async () => {
    const a = (await t.post('/videolibrary', { Name: 'Same' })).body;
    const b = (await t.post('/videolibrary', { Name: 'Same' })).body;
    expect(b.Id).not.toBe(a.Id);
    expect(b.PullZoneId).not.toBe(a.PullZoneId);
    expect(b.StorageZoneId).not.toBe(a.StorageZoneId);
    expect(b.ApiKey).not.toBe(a.ApiKey);
  });

  it.each([
    [0, 'x264'],
    [1, 'x264,vp9,hevc,av1'],
    [1, 'av1'],
    [null, 'x264'],
  ])('accepts encoding tier %s with OutputCodecs %s', async (tier, codecs) => {
    const res = await t.post('/videolibrary', { Name: 'Codecs', EncodingTier: tier, OutputCodecs: codecs });
    expect(res.status).toBe(201);
    expect(res.body.OutputCodecs).toBe(codecs);
    expect(res.body.EncodingTier).toBe(tier ?? 0);
  });

  it('keeps the library, its zones and its keys across a restart, with credentials sealed at rest', async () => {
    const lib = (await t.post('/videolibrary', { Name: 'Durable', ReplicationRegions: ['NY'] })).body;
    await t.restart();
    const read = await t.get(`/videolibrary/${lib.Id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(lib);
    expect((await t.get(`/storagezone/${lib.StorageZoneId}`)).body.PullZones[0].VideoLibraryId).toBe(lib.Id);
    expect((await t.get(`/pullzone/${lib.PullZoneId}`)).body.VideoLibraryId).toBe(lib.Id);

    const stored = await t.store.docs.get<Record<string, unknown>>('videoLibrary', t.accountId, String(lib.Id));
    for (const field of ['ApiKey', 'ReadOnlyApiKey', 'ApiAccessKey']) {
      expect(stored?.doc[field]).toMatch(/^v1:/);
      expect(JSON.stringify(stored?.doc)).not.toContain(lib[field]);
    }
  });
});
