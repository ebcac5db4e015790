import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../helpers/app.js';

const DELAY = 5_000;
let t: TestContext;
beforeEach(async () => {
  t = await createTestApp({ jobDelayMs: DELAY });
});
afterEach(async () => {
  await t.close();
});

const zone = async (id: number) => (await t.get(`/storagezone/${id}`)).body as { ReplicationChangeInProgress: boolean; ReplicationRegions: string[] };

describe('storage zone ReplicationChangeInProgress', () => {
  it('is true from the moment a region is added until the background job has enabled it', async () => {
    const { Id } = (await t.post('/storagezone', { Name: 'repl', Region: 'DE' })).body;
    expect((await zone(Id)).ReplicationChangeInProgress).toBe(false);
    expect((await t.post(`/storagezone/${Id}`, { ReplicationZones: ['NY'] })).status).toBe(204);
    expect(await zone(Id)).toMatchObject({ ReplicationChangeInProgress: true, ReplicationRegions: ['NY'] });
    expect(await t.runJobs(DELAY - 1)).toBe(0);
    expect((await zone(Id)).ReplicationChangeInProgress).toBe(true);
    expect(await t.runJobs(1)).toBe(1);
    expect(await zone(Id)).toMatchObject({ ReplicationChangeInProgress: false, ReplicationRegions: ['NY'] });
  });

  it('stays in progress until the last of several additions is done', async () => {
    const { Id } = (await t.post('/storagezone', { Name: 'repl2', Region: 'DE' })).body;
    await t.post(`/storagezone/${Id}`, { ReplicationZones: ['NY'] });
    t.clock.advance(3_000);
    await t.post(`/storagezone/${Id}`, { ReplicationZones: ['SYD'] });
    await t.runJobs(2_000); // the first job is due; the second addition is not done
    expect((await zone(Id)).ReplicationChangeInProgress).toBe(true);
    await t.runJobs(3_000);
    expect(await zone(Id)).toMatchObject({ ReplicationChangeInProgress: false, ReplicationRegions: ['NY', 'SYD'] });
  });

  it('does not change for a region the zone already has, and survives a restart', async () => {
    const { Id } = (await t.post('/storagezone', { Name: 'repl3', Region: 'DE', ReplicationRegions: ['NY'] })).body;
    await t.post(`/storagezone/${Id}`, { ReplicationZones: ['NY'] });
    expect((await zone(Id)).ReplicationChangeInProgress).toBe(false);
    await t.post(`/storagezone/${Id}`, { ReplicationZones: ['LA'] });
    await t.restart();
    expect((await zone(Id)).ReplicationChangeInProgress).toBe(true);
    await t.runJobs(DELAY);
    expect((await zone(Id)).ReplicationChangeInProgress).toBe(false);
  });
});
