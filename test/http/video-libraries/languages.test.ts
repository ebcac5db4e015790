import { Ajv } from 'ajv';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VideoLibraryLanguage } from '../../../src/schemas/video-library.js';
import { createTestApp, expectErrorBody, type TestContext } from '../../helpers/app.js';

const ajv = new Ajv({ strict: false, allErrors: true });
ajv.addFormat('int32', true);
const validList = ajv.compile(Type.Array(VideoLibraryLanguage));

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('GET /videolibrary/languages', () => {
  it('lists the languages of the player interface and of automatic captions', async () => {
    const res = await t.get('/videolibrary/languages');
    expect(res.status).toBe(200);
    expect(validList(res.body), JSON.stringify(validList.errors)).toBe(true);
    expect(res.body.length).toBeGreaterThanOrEqual(30);
    for (const language of res.body) expect(Object.keys(language).sort()).toEqual(Object.keys(VideoLibraryLanguage.properties).sort());
    expect(res.body).toContainEqual({ ShortCode: 'en', Name: 'English', SupportPlayerTranslation: true, SupportTranscribing: true, TranscribingAccuracy: 96 });
    const codes = res.body.map((l: { ShortCode: string }) => l.ShortCode);
    expect(new Set(codes).size).toBe(codes.length);
    for (const l of res.body) {
      expect(l.ShortCode).toMatch(/^[a-z]{2}$/);
      expect(l.TranscribingAccuracy).toBeGreaterThanOrEqual(0);
      expect(l.TranscribingAccuracy).toBeLessThanOrEqual(100);
      expect(l.SupportTranscribing).toBe(l.TranscribingAccuracy > 0);
    }
  });

  it('needs a key, and a read-only one is enough', async () => {
    expectErrorBody(await t.get('/videolibrary/languages', null), 401, '/videolibrary/languages');
    expectErrorBody(await t.get('/videolibrary/languages', 'not-a-key'), 401, '/videolibrary/languages');
    const ro = (await t.post('/apikey', { Roles: ['ReadOnly'] })).body.Key;
    expect((await t.get('/videolibrary/languages', ro)).status).toBe(200);
  });
});
