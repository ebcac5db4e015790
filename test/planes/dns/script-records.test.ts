/**
 * Script records (Scriptable DNS) over a real UDP socket: a Script record's name is answered with
 * what its DNS script (an edge script of ScriptType 0, running in its own Deno process) returns for
 * each query; a script that throws answers SERVFAIL, and the name still answers other types NODATA.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../helpers/app.js';
import { type DnsPlane, startTestDnsPlane } from '../../helpers/dns-plane.js';
import { query, udpAsk } from './clients.js';

let t: TestContext;
let dns: DnsPlane;
let zoneId: number;

beforeAll(async () => {
  t = await createTestApp({ edgeAddresses: '192.0.2.80,2001:db8::80', edgeScriptStartupMs: 10_000 });
  zoneId = (await t.post('/dnszone', { Domain: 'scripted.test' })).body.Id;
  dns = await startTestDnsPlane(t);
});
afterAll(async () => {
  await dns?.close();
  await t?.close();
});

/** A published DNS script, and a Script record for `name` pointing at it. */
async function scriptRecord(name: string, code: string): Promise<void> {
  const created = await t.post('/compute/script', { Name: `dns-${name}`, Code: code, ScriptType: 0 });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect((await t.post(`/compute/script/${created.body.Id}/publish`, {})).status).toBe(204);
  const record = await t.put(`/dnszone/${zoneId}/records`, { Type: 11, Name: name, ScriptId: created.body.Id, Ttl: 300 });
  expect(record.status, JSON.stringify(record.body)).toBe(201);
}

describe('a Script record', () => {
  it("is answered with its script's result for the query", async () => {
    await scriptRecord(
      'geo',
      `export default function handleQuery(query) {
         const r = query.request;
         if (r.queryType === "TXT") return new TxtRecord("asked " + r.hostname + " from " + r.clientIP, 45);
         if (r.queryType === "AAAA") return new PullZoneRecord("my-zone");
         return [new ARecord("198.51.100.7", 60), new ARecord("198.51.100.8", 60)];
       }`,
    );
    // The first query starts the script's process (a cold start): a longer wait.
    const a = await udpAsk(dns.port, query('geo.scripted.test', { type: 'A' }), 8000);
    expect(a).toMatchObject({ rcode: 'NOERROR' });
    expect(a?.answers?.map((x) => [x.type, (x as { data: string }).data, (x as { ttl: number }).ttl])).toEqual([
      ['A', '198.51.100.7', 60],
      ['A', '198.51.100.8', 60],
    ]);
    const txt = await udpAsk(dns.port, query('geo.scripted.test', { type: 'TXT' }), 3000);
    expect(txt?.answers?.map((x) => (x as { data: Buffer[] }).data.map(String).join(''))).toEqual(['asked geo.scripted.test from 127.0.0.1']);
    expect(txt?.answers?.[0]).toMatchObject({ ttl: 45 });
    // PullZoneRecord: the edge's addresses.
    const aaaa = await udpAsk(dns.port, query('geo.scripted.test', { type: 'AAAA' }), 3000);
    expect(aaaa?.answers?.map((x) => (x as { data: string }).data)).toEqual(['2001:db8::80']);
    // A type the script does not answer: the name exists, no data.
    const mx = await udpAsk(dns.port, query('geo.scripted.test', { type: 'MX' }), 3000);
    expect(mx).toMatchObject({ rcode: 'NOERROR' });
    expect(mx?.answers ?? []).toEqual([]);
  });

  it('answers SERVFAIL when its script throws, and other names go on being answered', async () => {
    await scriptRecord('broken', 'export default function handleQuery() { throw new Error("no"); }');
    const broken = await udpAsk(dns.port, query('broken.scripted.test', { type: 'A' }), 8000);
    expect(broken).toMatchObject({ rcode: 'SERVFAIL' });
    const geo = await udpAsk(dns.port, query('geo.scripted.test', { type: 'A' }), 3000);
    expect(geo?.answers).toHaveLength(2);
  });
});
