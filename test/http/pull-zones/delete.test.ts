import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, errorFields, expectErrorBody, type TestContext } from '../../helpers/app.js';
import { CDN_DOMAIN, createZone, readOnlyKey } from './support.js';

let t: TestContext;
beforeEach(async () => {
  t = await createTestApp({ cdnDomain: CDN_DOMAIN });
});
afterEach(async () => {
  await t.close();
});

const remove = (id: number, key?: string | null) => t.del(`/pullzone/${id}`, undefined, key);

describe('DELETE /pullzone/{id}', () => {
  it('answers 204; the zone is gone and deleting it again is a 404', async () => {
    const zone = await createZone(t);
    const kept = await createZone(t, 'kept');
    const res = await remove(zone.Id);
    expect(res.status).toBe(204);
    expect(res.body).toBe('');
    expectErrorBody(await t.get(`/pullzone/${zone.Id}`), 404);
    expectErrorBody(await remove(zone.Id), 404, `/pullzone/${zone.Id}`);
    expect((await t.get('/pullzone')).body.map((z: { Id: number }) => z.Id)).toEqual([kept.Id]);
  });

  it('frees the name and every hostname of the zone', async () => {
    const zone = await createZone(t);
    expect((await t.post(`/pullzone/${zone.Id}/addHostname`, { Hostname: 'cdn.example.com' })).status).toBe(204);
    expect((await remove(zone.Id)).status).toBe(204);
    const again = await createZone(t);
    expect(again.Hostnames![0]!.Value).toBe(`my-zone.${CDN_DOMAIN}`);
    expect((await t.post(`/pullzone/${again.Id}/addHostname`, { Hostname: 'cdn.example.com' })).status).toBe(204);
  });

  it('refuses a zone that belongs to a video library (400) and keeps it', async () => {
    const library = (await t.post('/videolibrary', { Name: 'Lectures' })).body;
    const res = await remove(library.PullZoneId);
    expectErrorBody(res, 400);
    expect(res.body.ErrorKey).toBe('pullzone.owned_by_video_library');
    expect((await t.get(`/pullzone/${library.PullZoneId}`)).status).toBe(200);
  });

  it('runs the deletion hooks in the same transaction: a failing hook deletes nothing', async () => {
    const zone = await createZone(t);
    await t.post(`/pullzone/${zone.Id}/addHostname`, { Hostname: 'cdn.example.com' });
    const seen: number[] = [];
    t.app.services.pullZones.onDelete.push(async (_tx, _account, id) => {
      seen.push(id);
      if (seen.length === 1) throw new Error('link cleanup failed');
    });
    expect((await remove(zone.Id)).status).toBe(500);
    expect((await t.get(`/pullzone/${zone.Id}`)).body.Hostnames).toHaveLength(2);
    const other = await createZone(t, 'other');
    expect(errorFields(await t.post(`/pullzone/${other.Id}/addHostname`, { Hostname: 'cdn.example.com' }))).toEqual(['Hostname']);
    expect((await remove(zone.Id)).status).toBe(204);
    expect(seen).toEqual([zone.Id, zone.Id]);
  });

  it('answers 404 for a foreign zone and leaves it; 401 and 403 without a writing key', async () => {
    const zone = await createZone(t);
    const other = await t.newAccount();
    expectErrorBody(await remove(zone.Id, other.key), 404);
    expectErrorBody(await remove(zone.Id, null), 401);
    expectErrorBody(await remove(zone.Id, 'wrong'), 401);
    expectErrorBody(await remove(zone.Id, await readOnlyKey(t)), 403);
    expect(errorFields(await remove(0))).toEqual(['id']);
    expect((await t.get(`/pullzone/${zone.Id}`)).status).toBe(200);
  });
});
