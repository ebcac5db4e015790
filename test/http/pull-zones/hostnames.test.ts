import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Hostname } from '../../../src/schemas/pull-zone.js';
import { createTestApp, errorFields, expectErrorBody, type TestContext } from '../../helpers/app.js';
import { CDN_DOMAIN, createZone, expectShape, readOnlyKey, readZone } from './support.js';

let t: TestContext;
// One app for the file (building one is most of a short test's time), emptied before each test.
beforeAll(async () => {
  t = await createTestApp({ cdnDomain: CDN_DOMAIN });
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await t.reset();
});

const addHostname = (id: number, Hostname: unknown, key?: string | null) => t.post(`/pullzone/${id}/addHostname`, { Hostname }, key);
const removeHostname = (id: number, Hostname: unknown, key?: string | null) => t.del(`/pullzone/${id}/removeHostname`, { Hostname }, key);
const setForceSSL = (id: number, body: Record<string, unknown>, key?: string | null) => t.post(`/pullzone/${id}/setForceSSL`, body, key);
const values = async (id: number) => (await readZone(t, id)).Hostnames!.map((h) => h.Value);

describe('POST /pullzone/{id}/addHostname', () => {
  it('adds the hostname in lowercase, without a certificate, after the system hostname', async () => {
    const zone = await createZone(t);
    const res = await addHostname(zone.Id, '  CDN.Example.COM ');
    expect(res.status).toBe(204);
    expect(res.body).toBe('');
    const hostnames = (await readZone(t, zone.Id)).Hostnames!;
    for (const h of hostnames) expectShape(Hostname, h);
    expect(hostnames).toEqual([
      zone.Hostnames![0],
      {
        Id: expect.any(Number),
        Value: 'cdn.example.com',
        ForceSSL: false,
        IsSystemHostname: false,
        IsManagedHostname: false,
        HasCertificate: false,
        Certificate: '',
        CertificateKey: '',
        CertificateKeyType: 0,
        CertificateProvisionType: 0,
      },
    ]);
    expect(hostnames[1]!.Id).not.toBe(hostnames[0]!.Id);
    await t.restart();
    expect(await values(zone.Id)).toEqual([`my-zone.${CDN_DOMAIN}`, 'cdn.example.com']);
  });

  it('changes nothing when the zone already has the hostname', async () => {
    const zone = await createZone(t);
    await addHostname(zone.Id, 'cdn.example.com');
    expect((await addHostname(zone.Id, 'CDN.example.com')).status).toBe(204);
    expect((await addHostname(zone.Id, `my-zone.${CDN_DOMAIN}`)).status).toBe(204);
    expect(await values(zone.Id)).toEqual([`my-zone.${CDN_DOMAIN}`, 'cdn.example.com']);
  });

  it('keeps a hostname on one zone across all accounts', async () => {
    const zone = await createZone(t);
    await addHostname(zone.Id, 'cdn.example.com');
    const mine = await createZone(t, 'second');
    const other = await t.newAccount();
    const theirs = await createZone(t, 'theirs', {}, other.key);
    for (const [id, key] of [
      [mine.Id, t.key],
      [theirs.Id, other.key],
    ] as const) {
      const res = await addHostname(id, 'Cdn.Example.Com', key);
      expectErrorBody(res, 400);
      expect(errorFields(res)).toEqual(['Hostname']);
      expect(res.body.ErrorKey).toBe('pullzone.hostname_taken');
    }
    expect(await values(mine.Id)).toEqual([`second.${CDN_DOMAIN}`]);
  });

  it('lets only one of two simultaneous adds of the same hostname win', async () => {
    const a = await createZone(t, 'zone-a');
    const b = await createZone(t, 'zone-b');
    const results = await Promise.all([addHostname(a.Id, 'race.example.com'), addHostname(b.Id, 'race.example.com')]);
    expect(results.map((r) => r.status).sort()).toEqual([204, 400]);
    // The loser is told what any other taken hostname is told.
    expect(results.find((r) => r.status === 400)!.body.ErrorKey).toBe('pullzone.hostname_taken');
    const owners = [...(await values(a.Id)), ...(await values(b.Id))].filter((v) => v === 'race.example.com');
    expect(owners).toHaveLength(1);
  });

  it("refuses what is not a domain name, and names under the platform's own domain", async () => {
    const zone = await createZone(t);
    for (const bad of [
      '',
      'localhost',
      'not a host',
      'under_score.example.com',
      '-dash.example.com',
      'a..b.com',
      '203.0.113.7',
      'http://cdn.example.com',
      `${'a'.repeat(64)}.example.com`,
      `x.${CDN_DOMAIN}`,
      CDN_DOMAIN,
      42,
      null,
    ]) {
      const res = await addHostname(zone.Id, bad);
      expectErrorBody(res, 400, `/pullzone/${zone.Id}/addHostname`);
      expect(errorFields(res), String(bad)).toEqual(['Hostname']);
    }
    expect(errorFields(await t.post(`/pullzone/${zone.Id}/addHostname`, {}))).toEqual(['Hostname']);
    expect((await addHostname(zone.Id, 'xn--bcher-kva.example.com')).status).toBe(204);
    expect((await addHostname(zone.Id, 'Bücher.example.org')).status).toBe(204);
    expect(await values(zone.Id)).toEqual([`my-zone.${CDN_DOMAIN}`, 'xn--bcher-kva.example.com', 'xn--bcher-kva.example.org']);
  });

  it('answers 404 for unknown and foreign zones; 401 and 403 without a writing key', async () => {
    const zone = await createZone(t);
    expectErrorBody(await addHostname(999999, 'cdn.example.com'), 404);
    const other = await t.newAccount();
    expectErrorBody(await addHostname(zone.Id, 'cdn.example.com', other.key), 404);
    expectErrorBody(await addHostname(zone.Id, 'cdn.example.com', null), 401);
    expectErrorBody(await addHostname(zone.Id, 'cdn.example.com', 'wrong'), 401);
    expectErrorBody(await addHostname(zone.Id, 'cdn.example.com', await readOnlyKey(t)), 403);
    expect(await values(zone.Id)).toEqual([`my-zone.${CDN_DOMAIN}`]);
    // The failed attempts claimed nothing.
    const another = await createZone(t, 'another');
    expect((await addHostname(another.Id, 'cdn.example.com')).status).toBe(204);
  });
});

describe('DELETE /pullzone/{id}/removeHostname', () => {
  it('removes a custom hostname, which another zone can then take', async () => {
    const zone = await createZone(t);
    await addHostname(zone.Id, 'cdn.example.com');
    const res = await removeHostname(zone.Id, 'CDN.example.com');
    expect(res.status).toBe(204);
    expect(await values(zone.Id)).toEqual([`my-zone.${CDN_DOMAIN}`]);
    const other = await createZone(t, 'other');
    expect((await addHostname(other.Id, 'cdn.example.com')).status).toBe(204);
  });

  it('keeps the system hostname (400); a hostname not on the zone is a 404', async () => {
    const zone = await createZone(t);
    const system = await removeHostname(zone.Id, `my-zone.${CDN_DOMAIN}`);
    expectErrorBody(system, 400);
    expect(errorFields(system)).toEqual(['Hostname']);
    const elsewhere = await createZone(t, 'elsewhere');
    await addHostname(elsewhere.Id, 'cdn.example.com');
    expectErrorBody(await removeHostname(zone.Id, 'cdn.example.com'), 404);
    expectErrorBody(await removeHostname(zone.Id, 'never.example.com'), 404);
    await addHostname(zone.Id, 'gone.example.com');
    expect((await removeHostname(zone.Id, 'gone.example.com')).status).toBe(204);
    expectErrorBody(await removeHostname(zone.Id, 'gone.example.com'), 404);
    expect(errorFields(await removeHostname(zone.Id, ''))).toEqual(['Hostname']);
    expect(await values(elsewhere.Id)).toEqual([`elsewhere.${CDN_DOMAIN}`, 'cdn.example.com']);
  });

  it('answers 404 for foreign zones; 401 and 403 without a writing key', async () => {
    const zone = await createZone(t);
    await addHostname(zone.Id, 'cdn.example.com');
    const other = await t.newAccount();
    expectErrorBody(await removeHostname(zone.Id, 'cdn.example.com', other.key), 404);
    expectErrorBody(await removeHostname(999999, 'cdn.example.com'), 404);
    expectErrorBody(await removeHostname(zone.Id, 'cdn.example.com', null), 401);
    expectErrorBody(await removeHostname(zone.Id, 'cdn.example.com', await readOnlyKey(t)), 403);
    expect(await values(zone.Id)).toContain('cdn.example.com');
  });
});

describe('POST /pullzone/{id}/setForceSSL', () => {
  it('sets and clears ForceSSL on one hostname, the system hostname included', async () => {
    const zone = await createZone(t);
    await addHostname(zone.Id, 'cdn.example.com');
    expect((await setForceSSL(zone.Id, { Hostname: 'CDN.example.com', ForceSSL: true })).status).toBe(204);
    expect((await readZone(t, zone.Id)).Hostnames!.map((h) => h.ForceSSL)).toEqual([false, true]);
    expect((await setForceSSL(zone.Id, { hostname: `my-zone.${CDN_DOMAIN}`, forcessl: true })).status).toBe(204);
    expect((await setForceSSL(zone.Id, { Hostname: 'cdn.example.com', ForceSSL: false })).status).toBe(204);
    expect((await setForceSSL(zone.Id, { Hostname: 'cdn.example.com', ForceSSL: false })).status).toBe(204);
    expect((await readZone(t, zone.Id)).Hostnames!.map((h) => h.ForceSSL)).toEqual([true, false]);
  });

  it('validates the body; an unknown hostname or zone is a 404; needs a writing key', async () => {
    const zone = await createZone(t);
    expect(errorFields(await setForceSSL(zone.Id, { Hostname: `my-zone.${CDN_DOMAIN}` }))).toEqual(['ForceSSL']);
    expect(errorFields(await setForceSSL(zone.Id, { Hostname: `my-zone.${CDN_DOMAIN}`, ForceSSL: 'yes' }))).toEqual(['ForceSSL']);
    expect(errorFields(await setForceSSL(zone.Id, { ForceSSL: true }))).toEqual(['Hostname']);
    expectErrorBody(await setForceSSL(zone.Id, { Hostname: 'other.example.com', ForceSSL: true }), 404);
    const other = await t.newAccount();
    expectErrorBody(await setForceSSL(zone.Id, { Hostname: `my-zone.${CDN_DOMAIN}`, ForceSSL: true }, other.key), 404);
    expectErrorBody(await setForceSSL(zone.Id, { Hostname: `my-zone.${CDN_DOMAIN}`, ForceSSL: true }, null), 401);
    expectErrorBody(await setForceSSL(zone.Id, { Hostname: `my-zone.${CDN_DOMAIN}`, ForceSSL: true }, await readOnlyKey(t)), 403);
    expect((await readZone(t, zone.Id)).Hostnames![0]!.ForceSSL).toBe(false);
  });
});
