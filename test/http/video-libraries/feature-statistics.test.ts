/** Transcription and DRM statistics of a video library: zeros until something records them, then what was recorded. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DRM_LICENSES, libraryUsageSubject, TRANSCRIBED_SECONDS } from '../../../src/domain/video-libraries/statistics.js';
import { createTestApp, errorFields, expectErrorBody, type TestContext } from '../../helpers/app.js';

let t: TestContext;
let id: number;
beforeEach(async () => {
  t = await createTestApp();
  id = (await t.post('/videolibrary', { Name: 'Lectures' })).body.Id;
});
afterEach(async () => {
  await t.close();
});

const DAY = 86_400_000;

describe('GET /videolibrary/{id}/transcribing/statistics and /drm/statistics', () => {
  it('chart the 14 days up to now by default, all zero while no video was processed', async () => {
    const transcribing = await t.get(`/videolibrary/${id}/transcribing/statistics`);
    expect(transcribing.status).toBe(200);
    expect(transcribing.body.TotalTranscriptionSeconds).toBe(0);
    const days = Object.keys(transcribing.body.TranscriptionSecondsChart);
    expect(days).toHaveLength(15);
    expect(days[0]).toBe('2025-12-18T00:00:00Z');
    expect(days.at(-1)).toBe('2026-01-01T00:00:00Z');
    expect(Object.values(transcribing.body.TranscriptionSecondsChart).every((v) => v === 0)).toBe(true);
    const drm = await t.get(`/videolibrary/${id}/drm/statistics`);
    expect(drm.body).toEqual({ TotalLicensesIssued: 0, LicensesIssuedChart: transcribing.body.TranscriptionSecondsChart });
  });

  it('show what was recorded for the library, day by day, over the period asked for', async () => {
    const usage = t.app.services.usage;
    usage.add(libraryUsageSubject(id), TRANSCRIBED_SECONDS, 90, new Date('2025-12-30T10:00:00Z'));
    usage.add(libraryUsageSubject(id), TRANSCRIBED_SECONDS, 30, new Date('2025-12-31T23:00:00Z'));
    usage.add(libraryUsageSubject(id), DRM_LICENSES, 4, new Date('2025-12-31T12:00:00Z'));
    usage.add(libraryUsageSubject(id + 1), DRM_LICENSES, 7, new Date('2025-12-31T12:00:00Z'));
    await usage.flush();
    const range = '?dateFrom=2025-12-29T00:00:00Z&dateTo=2025-12-31T23:59:59Z';
    const transcribing = (await t.get(`/videolibrary/${id}/transcribing/statistics${range}`)).body;
    expect(transcribing).toEqual({
      TotalTranscriptionSeconds: 120,
      TranscriptionSecondsChart: { '2025-12-29T00:00:00Z': 0, '2025-12-30T00:00:00Z': 90, '2025-12-31T00:00:00Z': 30 },
    });
    const drm = (await t.get(`/videolibrary/${id}/drm/statistics${range}`)).body;
    expect(drm.TotalLicensesIssued).toBe(4);
    expect(drm.LicensesIssuedChart['2025-12-31T00:00:00Z']).toBe(4);
    t.clock.advance(30 * DAY);
    expect((await t.get(`/videolibrary/${id}/drm/statistics`)).body.TotalLicensesIssued).toBe(0);
  });

  it("answer 404 for an unknown library and for another account's, 400 naming a bad date", async () => {
    const other = await t.newAccount();
    for (const path of ['transcribing/statistics', 'drm/statistics']) {
      expectErrorBody(await t.get(`/videolibrary/${id}/${path}`, other.key), 404, `/videolibrary/${id}/${path}`);
      expectErrorBody(await t.get(`/videolibrary/987654/${path}`), 404);
      const bad = await t.get(`/videolibrary/${id}/${path}?dateFrom=yesterday`);
      expectErrorBody(bad, 400);
      expect(errorFields(bad)).toEqual(['dateFrom']);
      const readOnly = (await t.post('/apikey', { Roles: ['ReadOnly'] })).body.Key;
      expect((await t.get(`/videolibrary/${id}/${path}`, readOnly)).status).toBe(200);
    }
  });
});
