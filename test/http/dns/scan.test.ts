/**
 * Record scans against a real name server: NSD, started here on a loopback port as the upstream
 * resolver, serves zones with known records; a scan must find exactly those that lie on its list of
 * names and types, and nothing else.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, errorFields, expectErrorBody, type TestContext } from '../../helpers/app.js';
import { type DnsServer, freePort, startNsd } from '../../helpers/nsd.js';

const SOA = 'ns1.old-provider.test. hostmaster.old-provider.test. 1 7200 3600 1209600 300';

const SCANNED_ZONE = `$ORIGIN scanned.test.
@ 3600 IN SOA ${SOA}
@ 3600 IN NS ns1.old-provider.test.
@ 3600 IN NS ns2.old-provider.test.
@ 300 IN A 192.0.2.10
@ 300 IN AAAA 2001:db8::10
@ 600 IN MX 10 mail.scanned.test.
@ 600 IN MX 20 mx.backup-mail.test.
@ 300 IN TXT "v=spf1 mx -all"
@ 300 IN TXT "first-part-" "second-part"
@ 3600 IN CAA 0 issue "ca.example.net"
@ 3600 IN CAA 128 iodef "mailto:security@scanned.test"
www 300 IN CNAME scanned.test.
mail 300 IN A 192.0.2.25
api 120 IN A 192.0.2.30
api 120 IN A 192.0.2.31
api 120 IN AAAA 2001:db8::30
blog 300 IN CNAME blogs.hosting.test.
cdn 300 IN CNAME site.edgeplane.test.
shop 300 IN A 127.0.0.1
_dmarc 300 IN TXT "v=DMARC1; p=reject"
selector1._domainkey 300 IN CNAME selector1-scanned.dkim.mail-host.test.
_submission._tcp 300 IN SRV 0 1 587 mail.scanned.test.
_sip._tcp 300 IN SRV 10 60 5060 sip.scanned.test.
sip 300 IN A 192.0.2.40
intranet 300 IN A 192.0.2.99
`;

const record = (Name: string, Type: number, Ttl: number, Value: string, extra: Record<string, unknown> = {}) => ({
  Name,
  Type,
  Ttl,
  Value,
  Priority: null,
  Weight: null,
  Port: null,
  IsProxied: false,
  ...extra,
});

/** What the scan of scanned.test must find: `sip` and `intranet` are on no list, so they are not found. */
const SCANNED_RECORDS = [
  record('@', 0, 300, '192.0.2.10'),
  record('@', 1, 300, '2001:db8::10'),
  record('@', 4, 600, 'mail.scanned.test', { Priority: 10 }),
  record('@', 4, 600, 'mx.backup-mail.test', { Priority: 20 }),
  record('@', 3, 300, 'v=spf1 mx -all'),
  record('@', 3, 300, 'first-part-second-part'),
  record('@', 12, 3600, 'ns1.old-provider.test'),
  record('@', 12, 3600, 'ns2.old-provider.test'),
  record('@', 9, 3600, '0 issue "ca.example.net"'),
  record('@', 9, 3600, '128 iodef "mailto:security@scanned.test"'),
  record('www', 2, 300, 'scanned.test'),
  record('mail', 0, 300, '192.0.2.25'),
  record('api', 0, 120, '192.0.2.30'),
  record('api', 0, 120, '192.0.2.31'),
  record('api', 1, 120, '2001:db8::30'),
  record('blog', 2, 300, 'blogs.hosting.test'),
  // Already behind this platform: a CNAME under EDGEPLANE_CDN_DOMAIN, an address of EDGEPLANE_EDGE_ADDRESSES.
  record('cdn', 2, 300, 'site.edgeplane.test', { IsProxied: true }),
  record('shop', 0, 300, '127.0.0.1', { IsProxied: true }),
  record('_dmarc', 3, 300, 'v=DMARC1; p=reject'),
  record('selector1._domainkey', 2, 300, 'selector1-scanned.dkim.mail-host.test'),
  record('_submission._tcp', 8, 300, 'mail.scanned.test', { Priority: 0, Weight: 1, Port: 587 }),
  record('_sip._tcp', 8, 300, 'sip.scanned.test', { Priority: 10, Weight: 60, Port: 5060 }),
];

const WILD_ZONE = `$ORIGIN wild.test.
@ 3600 IN SOA ${SOA}
@ 3600 IN NS ns1.old-provider.test.
@ 300 IN A 192.0.2.50
* 300 IN A 192.0.2.99
* 300 IN TXT "anything"
www 300 IN A 192.0.2.51
api 300 IN A 192.0.2.99
`;

/** A wildcard is reported once; a name answering just as it does (`api`) cannot be told from it. */
const WILD_RECORDS = [
  record('@', 0, 300, '192.0.2.50'),
  record('@', 12, 3600, 'ns1.old-provider.test'),
  record('*', 0, 300, '192.0.2.99'),
  record('*', 3, 300, 'anything'),
  record('www', 0, 300, '192.0.2.51'),
];

const sorted = (records: unknown[]) => [...records].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let dir: string;
let nsd: DnsServer;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'edgeplane-scan-'));
  writeFileSync(join(dir, 'scanned.zone'), SCANNED_ZONE);
  writeFileSync(join(dir, 'wild.zone'), WILD_ZONE);
  nsd = await startNsd(join(dir, 'nsd'), [
    { name: 'scanned.test', file: join(dir, 'scanned.zone') },
    { name: 'wild.test', file: join(dir, 'wild.zone') },
  ]);
});
afterAll(async () => {
  await nsd?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('DNS record scans against a real name server', () => {
  let t: TestContext;
  let zoneId: number;
  beforeEach(async () => {
    t = await createTestApp({ dnsUpstream: `127.0.0.1:${nsd.port}` });
    zoneId = (await t.post('/dnszone', { Domain: 'scanned.test' })).body.Id;
  });
  afterEach(async () => {
    await t.close();
  });

  const scanOf = (id: number, key?: string) => t.get(`/dnszone/${id}/records/scan`, key);

  it('start in the background and find exactly the records on the list', async () => {
    const started = await t.post('/dnszone/records/scan', { ZoneId: zoneId });
    expect(started.status).toBe(200);
    expect(started.body).toEqual({ JobId: expect.stringMatching(GUID), Status: 0 });

    const pending = await scanOf(zoneId);
    expect(pending.status).toBe(200);
    expect(pending.body).toEqual({
      JobId: started.body.JobId,
      ZoneId: zoneId,
      Domain: 'scanned.test',
      AccountId: expect.stringMatching(GUID),
      Status: 0,
      CreatedAt: '2026-01-01T00:00:00.000Z',
      CompletedAt: null,
      Records: null,
      Error: null,
    });

    expect(await t.runJobs(1000)).toBe(1);
    const done = (await scanOf(zoneId)).body;
    expect(done).toMatchObject({ JobId: started.body.JobId, Status: 2, CompletedAt: '2026-01-01T00:00:01.000Z', Error: null });
    expect(sorted(done.Records)).toEqual(sorted(SCANNED_RECORDS));
  });

  it('scan a domain before its zone exists; the zone then shows that scan', async () => {
    const started = await t.post('/dnszone/records/scan', { Domain: 'Wild.Test.' });
    expect(started.status).toBe(200);
    await t.runJobs();
    const wildZone = (await t.post('/dnszone', { Domain: 'wild.test' })).body.Id;
    const scan = (await scanOf(wildZone)).body;
    expect(scan).toMatchObject({ JobId: started.body.JobId, ZoneId: null, Domain: 'wild.test', Status: 2 });
    expect(sorted(scan.Records)).toEqual(sorted(WILD_RECORDS));
  });

  it('keep the latest scan of a domain, which replaces the one before, finished or not', async () => {
    const first = (await t.post('/dnszone/records/scan', { ZoneId: zoneId })).body.JobId;
    const second = (await t.post('/dnszone/records/scan', { Domain: 'scanned.test' })).body.JobId;
    expect(second).not.toBe(first);
    expect(await t.runJobs()).toBe(2);
    expect((await scanOf(zoneId)).body).toMatchObject({ JobId: second, ZoneId: null, Status: 2 });
  });

  it('find nothing, and complete, for a domain that does not exist', async () => {
    await t.post('/dnszone/records/scan', { Domain: 'missing.scanned.test' });
    await t.runJobs();
    const missing = (await t.post('/dnszone', { Domain: 'missing.scanned.test' })).body.Id;
    expect((await scanOf(missing)).body).toMatchObject({ Status: 2, Records: [], Error: null });
  });

  it('fail, naming the resolver and its answer, when the resolver refuses the domain', async () => {
    await t.post('/dnszone/records/scan', { Domain: 'elsewhere.test' });
    await t.runJobs();
    const zone = (await t.post('/dnszone', { Domain: 'elsewhere.test' })).body.Id;
    const scan = (await scanOf(zone)).body;
    expect(scan).toMatchObject({ Status: 3, Records: null, CompletedAt: expect.any(String) });
    expect(scan.Error).toContain(`127.0.0.1:${nsd.port} (EDGEPLANE_DNS_UPSTREAM)`);
    expect(scan.Error).toContain('SOA elsewhere.test: the resolver answered REFUSED');
  });

  it('refuse a request naming neither or both of ZoneId and Domain, or a malformed one (400)', async () => {
    for (const body of [{}, { ZoneId: null, Domain: null }, { ZoneId: zoneId, Domain: 'scanned.test' }]) {
      const res = await t.post('/dnszone/records/scan', body);
      expectErrorBody(res, 400, '/dnszone/records/scan');
      expect(errorFields(res)).toEqual(['ZoneId', 'Domain']);
    }
    for (const [body, field] of [
      [{ Domain: 'not a domain' }, 'Domain'],
      [{ Domain: 'localhost' }, 'Domain'],
      [{ Domain: 42 }, 'Domain'],
      [{ ZoneId: 'abc' }, 'ZoneId'],
      [{ ZoneId: 0 }, 'ZoneId'],
    ] as const) {
      const res = await t.post('/dnszone/records/scan', body);
      expectErrorBody(res, 400);
      expect(errorFields(res)).toEqual([field]);
    }
    expectErrorBody(await t.request('POST', '/dnszone/records/scan'), 400);
    expectErrorBody(await t.get('/dnszone/abc/records/scan'), 400);
    expectErrorBody(await scanOf(zoneId), 404, `/dnszone/${zoneId}/records/scan`);
  });

  it('answer 404 for a zone that does not exist, and for a zone never scanned', async () => {
    expectErrorBody(await t.post('/dnszone/records/scan', { ZoneId: 999 }), 404);
    expectErrorBody(await scanOf(999), 404);
    const res = await scanOf(zoneId);
    expectErrorBody(res, 404);
    expect(res.body.ErrorKey).toBe('dnszone.scan_not_found');
  });

  it("keep each account's scans to itself", async () => {
    const mine = (await t.post('/dnszone/records/scan', { ZoneId: zoneId })).body.JobId;
    await t.runJobs();
    const other = await t.newAccount();
    // Another account's zone is not found, whether to scan or to read.
    expectErrorBody(await t.post('/dnszone/records/scan', { ZoneId: zoneId }, other.key), 404);
    expectErrorBody(await scanOf(zoneId, other.key), 404);
    // Any account may scan any domain, but its scan is its own: it replaces nothing of ours.
    expect((await t.post('/dnszone/records/scan', { Domain: 'scanned.test' }, other.key)).status).toBe(200);
    await t.runJobs();
    expect((await scanOf(zoneId)).body.JobId).toBe(mine);
  });

  it('let a read-only key read scans but not start one (403)', async () => {
    const readOnly = (await t.post('/apikey', { Roles: ['ReadOnly'] })).body.Key as string;
    expectErrorBody(await t.post('/dnszone/records/scan', { ZoneId: zoneId }, readOnly), 403);
    expectErrorBody(await scanOf(zoneId, readOnly), 404);
    await t.post('/dnszone/records/scan', { ZoneId: zoneId });
    expect((await scanOf(zoneId, readOnly)).status).toBe(200);
  });

  it('answer 401 without a valid key', async () => {
    expectErrorBody(await t.post('/dnszone/records/scan', { ZoneId: zoneId }, null), 401);
    expectErrorBody(await scanOf(zoneId, 'not-a-key'), 401);
  });
});

describe('DNS record scans without a usable resolver', () => {
  let t: TestContext | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('answer 503 naming EDGEPLANE_DNS_UPSTREAM when it is not set, and store nothing', async () => {
    t = await createTestApp();
    const zoneId = (await t.post('/dnszone', { Domain: 'scanned.test' })).body.Id;
    const res = await t.post('/dnszone/records/scan', { ZoneId: zoneId });
    expectErrorBody(res, 503, '/dnszone/records/scan');
    expect(res.body.detail).toContain('EDGEPLANE_DNS_UPSTREAM');
    expect(res.body.ErrorKey).toBe('dnszone.scan_no_upstream');
    expect(await t.runJobs()).toBe(0);
    expectErrorBody(await t.get(`/dnszone/${zoneId}/records/scan`), 404);
  });

  it('fail the scan, saying why, when nothing answers at the resolver address', async () => {
    const port = await freePort();
    t = await createTestApp({ dnsUpstream: `127.0.0.1:${port}` });
    const zoneId = (await t.post('/dnszone', { Domain: 'scanned.test' })).body.Id;
    expect((await t.post('/dnszone/records/scan', { ZoneId: zoneId })).status).toBe(200);
    await t.runJobs();
    const scan = (await t.get(`/dnszone/${zoneId}/records/scan`)).body;
    expect(scan).toMatchObject({ Status: 3, Records: null });
    expect(scan.Error).toBe(
      `The resolver 127.0.0.1:${port} (EDGEPLANE_DNS_UPSTREAM) could not answer SOA scanned.test: connection refused (nothing listens at that address and port).`,
    );
  });
});
