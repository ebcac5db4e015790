import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VideoLibrary } from '../../../src/schemas/video-library.js';
import { createTestApp, errorFields, expectErrorBody, type TestContext } from '../../helpers/app.js';
import { schemaAjv } from '../../helpers/schema-ajv.js';

const ajv = schemaAjv();
const validLibrary = ajv.compile(VideoLibrary);

let t: TestContext;
// One app for the file (building one is most of a short test's time); each test works on resources of its own.
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const create = async (body: Record<string, unknown> = {}) => (await t.post('/videolibrary', { Name: 'Lectures', ...body })).body;
const update = (id: number, body: unknown, key?: string) => t.post(`/videolibrary/${id}`, body, key);
const read = async (id: number) => (await t.get(`/videolibrary/${id}`)).body;

describe('POST /videolibrary/{id}', () => {
  it('answers 200 with the whole library, changing only the fields sent', async () => {
    const lib = await create();
    t.clock.advance(5000);
    const res = await update(lib.Id, {
      Name: 'Renamed',
      PlayerKeyColor: '#123456',
      CaptionsFontSize: 24,
      EnabledResolutions: ' 720p, 1080p,720p',
      Controls: 'play,progress',
      ShowHeatmap: true,
      AdPublisherId: 'pub-1',
      TranscribingCaptionLanguages: ['en', 'fr'],
      Bitrate720p: 3000,
      UILanguage: null,
    });
    expect(res.status).toBe(200);
    expect(validLibrary(res.body), JSON.stringify(validLibrary.errors)).toBe(true);
    expect(Object.keys(res.body).sort()).toEqual(Object.keys(VideoLibrary.properties).sort());
    expect(res.body).toEqual({
      ...lib,
      Name: 'Renamed',
      PlayerKeyColor: '#123456',
      CaptionsFontSize: 24,
      EnabledResolutions: '720p,1080p',
      Controls: 'play,progress',
      ShowHeatmap: true,
      AdPublisherId: 'pub-1',
      TranscribingCaptionLanguages: ['en', 'fr'],
      Bitrate720p: 3000,
      DateModified: new Date(Date.parse(lib.DateModified) + 5000).toISOString(),
    });
    expect(await read(lib.Id)).toEqual(res.body);
    await t.restart();
    expect(await read(lib.Id)).toEqual(res.body);
  });

  it('binds field names case-insensitively and treats an empty body as no change', async () => {
    const lib = await create();
    expect((await update(lib.Id, { name: 'lower', keeporiginalfiles: false })).body).toMatchObject({ Name: 'lower', KeepOriginalFiles: false });
    const same = await update(lib.Id, {});
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ Name: 'lower', KeepOriginalFiles: false });
  });

  describe('encoding tier rule, checked on the resulting library', () => {
    it('lets the premium tier use every codec and just-in-time encoding', async () => {
      const lib = await create();
      const res = await update(lib.Id, { EncodingTier: 1, OutputCodecs: 'x264,vp9,hevc,av1', JitEncodingEnabled: true });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ EncodingTier: 1, OutputCodecs: 'x264,vp9,hevc,av1', JitEncodingEnabled: true });
    });

    it('refuses premium codecs on the free tier, naming OutputCodecs', async () => {
      const lib = await create();
      const res = await update(lib.Id, { OutputCodecs: 'x264,vp9' });
      expectErrorBody(res, 400, `/videolibrary/${lib.Id}`);
      expect(errorFields(res)).toEqual(['OutputCodecs']);
      expect(res.body.ErrorKey).toBe('videolibrary.output_codecs_invalid');
      expect(await read(lib.Id)).toEqual(lib);
    });

    it('refuses going back to the free tier while premium codecs or JIT stay on, naming EncodingTier', async () => {
      const lib = await create({ EncodingTier: 1, OutputCodecs: 'x264,av1' });
      const codecs = await update(lib.Id, { EncodingTier: 0 });
      expectErrorBody(codecs, 400);
      expect(errorFields(codecs)).toEqual(['EncodingTier']);
      expect((await update(lib.Id, { EncodingTier: 0, OutputCodecs: 'x264' })).body).toMatchObject({ EncodingTier: 0, OutputCodecs: 'x264' });

      const jit = await create({ EncodingTier: 1, JitEncodingEnabled: true });
      expect(errorFields(await update(jit.Id, { EncodingTier: 0 }))).toEqual(['EncodingTier']);
      expect(errorFields(await update(jit.Id, { EncodingTier: 0, JitEncodingEnabled: true }))).toEqual(['JitEncodingEnabled']);
      expect((await update(jit.Id, { EncodingTier: 0, JitEncodingEnabled: false })).body).toMatchObject({ EncodingTier: 0, JitEncodingEnabled: false });
    });
  });

  it('keeps transcribing on while a generation feature needs it, and switches them off with it', async () => {
    const lib = await create();
    expect((await update(lib.Id, { EnableTranscribingChaptersGeneration: true })).body).toMatchObject({
      EnableTranscribing: true,
      EnableTranscribingChaptersGeneration: true,
    });
    const clash = await update(lib.Id, { EnableTranscribing: false, EnableTranscribingTitleGeneration: true });
    expectErrorBody(clash, 400);
    expect(errorFields(clash)).toEqual(['EnableTranscribingTitleGeneration']);
    expect((await update(lib.Id, { EnableTranscribing: false })).body).toMatchObject({
      EnableTranscribing: false,
      EnableTranscribingChaptersGeneration: false,
      EnableTranscribingTitleGeneration: false,
    });
  });

  it('exposes the originals while early play is on', async () => {
    const lib = await create();
    expect((await update(lib.Id, { AllowEarlyPlay: true })).body).toMatchObject({ AllowEarlyPlay: true, ExposeOriginals: true });
    const clash = await update(lib.Id, { ExposeOriginals: false });
    expectErrorBody(clash, 400);
    expect(errorFields(clash)).toEqual(['ExposeOriginals']);
    expect((await update(lib.Id, { AllowEarlyPlay: false, ExposeOriginals: false })).body).toMatchObject({ AllowEarlyPlay: false, ExposeOriginals: false });
  });

  it('enables the DRM schemes on enterprise DRM only, merging their partial settings', async () => {
    const lib = await create();
    const refused = await update(lib.Id, { DrmSchemeB: { Enabled: true } });
    expectErrorBody(refused, 400);
    expect(errorFields(refused)).toEqual(['DrmSchemeB.Enabled']);

    const res = await update(lib.Id, { DrmVersion: 1, DrmSchemeA: { Enabled: true }, DrmSchemeB: { Enabled: true, MinClientSecurityLevel: 1 } });
    expect(res.status).toBe(200);
    expect(res.body.DrmSchemeA).toEqual({ ...lib.DrmSchemeA, Enabled: true });
    expect(res.body.DrmSchemeB).toEqual({ ...lib.DrmSchemeB, Enabled: true, MinClientSecurityLevel: 1 });
    expect((await update(lib.Id, { DrmSchemeB: { SdOnlyForL3: true } })).body.DrmSchemeB).toMatchObject({
      Enabled: true,
      SdOnlyForL3: true,
      MinClientSecurityLevel: 1,
    });
    expect(errorFields(await update(lib.Id, { DrmVersion: 0 }))).toEqual(['DrmVersion']);
  });

  it("applies the delivery settings to the library's pull zone", async () => {
    const lib = await create();
    const before = (await t.get(`/pullzone/${lib.PullZoneId}`)).body;
    const res = await update(lib.Id, { EnableTokenAuthentication: true, EnableTokenIPVerification: true, ResetToken: true, BlockNoneReferrer: true });
    expect(res.body.BlockNoneReferrer).toBe(true);
    const zone = (await t.get(`/pullzone/${lib.PullZoneId}`)).body;
    expect(zone).toMatchObject({ ZoneSecurityEnabled: true, ZoneSecurityIncludeHashRemoteIP: true, BlockNoneReferrer: true });
    expect(zone.ZoneSecurityKey).not.toBe(before.ZoneSecurityKey);

    await update(lib.Id, { EnableTokenAuthentication: false });
    const after = (await t.get(`/pullzone/${lib.PullZoneId}`)).body;
    expect(after).toMatchObject({ ZoneSecurityEnabled: false, ZoneSecurityIncludeHashRemoteIP: true, ZoneSecurityKey: zone.ZoneSecurityKey });
  });

  it.each([
    [{ Name: '' }, 'Name'],
    [{ EncodingTier: 2 }, 'EncodingTier'],
    [{ DrmVersion: 3 }, 'DrmVersion'],
    [{ OutputCodecs: 'h264' }, 'OutputCodecs'],
    [{ EnabledResolutions: '' }, 'EnabledResolutions'],
    [{ EnabledResolutions: '4320p' }, 'EnabledResolutions'],
    [{ CaptionsFontSize: 'big' }, 'CaptionsFontSize'],
    [{ Bitrate240p: 2147483648 }, 'Bitrate240p'],
    [{ DrmSchemeB: { MinClientSecurityLevel: 4 } }, 'DrmSchemeB.MinClientSecurityLevel'],
    [{ TranscribingCaptionLanguages: 'en' }, 'TranscribingCaptionLanguages'],
  ])('refuses %j with a 400 naming %s and changes nothing', async (body, field) => {
    const lib = await create();
    const res = await update(lib.Id, body);
    expectErrorBody(res, 400, `/videolibrary/${lib.Id}`);
    expect(errorFields(res)).toEqual([field]);
    expect(await read(lib.Id)).toEqual(lib);
  });

  it('answers 404 for unknown and foreign libraries', async () => {
    const lib = await create();
    const other = await t.newAccount();
    expectErrorBody(await update(lib.Id, { Name: 'Stolen' }, other.key), 404, `/videolibrary/${lib.Id}`);
    expectErrorBody(await update(999_999, { Name: 'Nobody' }), 404);
    expect((await read(lib.Id)).Name).toBe('Lectures');
  });
});
