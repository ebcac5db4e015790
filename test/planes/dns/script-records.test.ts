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

/** A published DNS script; its id. */
async function dnsScript(name: string, code: string): Promise<number> {
  const created = await t.post('/compute/script', { Name: `dns-${name}`, Code: code, ScriptType: 0 });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect((await t.post(`/compute/script/${created.body.Id}/publish`, {})).status).toBe(204);
  return created.body.Id as number;
}

/** A Script record for `name` pointing at the script. */
async function recordFor(name: string, scriptId: number, variables?: { Name: string; Value: string | null }[]): Promise<void> {
  const body = { Type: 11, Name: name, ScriptId: scriptId, Ttl: 300, ...(variables ? { EnviromentalVariables: variables } : {}) };
  const record = await t.put(`/dnszone/${zoneId}/records`, body);
  expect(record.status, JSON.stringify(record.body)).toBe(201);
}

/** A published DNS script, and a Script record for `name` pointing at it. */
async function scriptRecord(name: string, code: string): Promise<number> {
  const scriptId = await dnsScript(name, code);
  await recordFor(name, scriptId);
  return scriptId;
}

const txtOf = (answer: Awaited<ReturnType<typeof udpAsk>>) => answer?.answers?.map((x) => (x as { data: Buffer[] }).data.map(String).join(''));

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

  it("gives the script its record's variables as environment variables, each record its own, over the script's", async () => {
    const scriptId = await dnsScript(
      'vars',
      `import process from "node:process";
       export default function handleQuery(query) {
         return new TxtRecord([Deno.env.get("REGION"), process.env.REGION, Deno.env.has("EMPTY"), Deno.env.get("SHARED")].join("|"));
       }`,
    );
    // The script's own variable, which the second record's replaces.
    expect((await t.post(`/compute/script/${scriptId}/variables/add`, { Name: 'SHARED', Required: false, DefaultValue: 'script' })).status).toBe(200);
    await recordFor('eu', scriptId, [
      { Name: 'REGION', Value: 'eu-west' },
      { Name: 'EMPTY', Value: null },
    ]);
    await recordFor('us', scriptId, [
      { Name: 'REGION', Value: 'us-east' },
      { Name: 'SHARED', Value: 'record' },
    ]);
    expect(txtOf(await udpAsk(dns.port, query('eu.scripted.test', { type: 'TXT' }), 8000))).toEqual(['eu-west|eu-west|true|script']);
    const [us, eu] = await Promise.all([
      udpAsk(dns.port, query('us.scripted.test', { type: 'TXT' }), 3000),
      udpAsk(dns.port, query('eu.scripted.test', { type: 'TXT' }), 3000),
    ]);
    expect(txtOf(us)).toEqual(['us-east|us-east|false|record']);
    expect(txtOf(eu)).toEqual(['eu-west|eu-west|true|script']);
  });

  it('answers SERVFAIL once its script is deleted; the record stays', async () => {
    const scriptId = await scriptRecord('gone', 'export default function handleQuery() { return new ARecord("198.51.100.9", 60); }');
    expect((await udpAsk(dns.port, query('gone.scripted.test', { type: 'A' }), 8000))?.answers).toHaveLength(1);
    expect((await t.request('DELETE', `/compute/script/${scriptId}`)).status).toBe(204);
    expect(await udpAsk(dns.port, query('gone.scripted.test', { type: 'A' }), 3000)).toMatchObject({ rcode: 'SERVFAIL' });
    const records = (await t.get(`/dnszone/${zoneId}`)).body.Records as { Name: string; LinkName: string }[];
    expect(records.find((r) => r.Name === 'gone')).toMatchObject({ LinkName: String(scriptId) });
  });

  it("tells the script a query's EDNS Client Subnet, and answers for that subnet only; other answers hold for any client", async () => {
    await scriptRecord('subnet', 'export default function handleQuery(query) { return new TxtRecord(query.request.ednsIP + " " + query.request.serverZone); }');
    expect((await t.put(`/dnszone/${zoneId}/records`, { Type: 0, Name: 'plain', Value: '192.0.2.10' })).status).toBe(201);
    const ecsOf = (answer: Awaited<ReturnType<typeof udpAsk>>) =>
      (
        answer?.additionals?.find((a) => a.type === 'OPT') as
          | { options: { code: number; ip: string; sourcePrefixLength: number; scopePrefixLength: number }[] }
          | undefined
      )?.options?.find((o) => o.code === 8);
    const clientSubnet = { ip: '198.51.100.0', sourcePrefixLength: 24 };
    const scripted = await udpAsk(dns.port, query('subnet.scripted.test', { type: 'TXT', udpPayloadSize: 1232, clientSubnet }), 8000);
    expect(txtOf(scripted)).toEqual(['198.51.100.0 LOCAL']);
    expect(ecsOf(scripted)).toMatchObject({ ip: '198.51.100.0', sourcePrefixLength: 24, scopePrefixLength: 24 });
    const plain = await udpAsk(dns.port, query('plain.scripted.test', { type: 'A', udpPayloadSize: 1232, clientSubnet }), 3000);
    expect(plain?.answers?.map((a) => (a as { data: string }).data)).toEqual(['192.0.2.10']);
    expect(ecsOf(plain)).toMatchObject({ ip: '198.51.100.0', sourcePrefixLength: 24, scopePrefixLength: 0 });
    // Without the option: no subnet told, none echoed.
    const bare = await udpAsk(dns.port, query('subnet.scripted.test', { type: 'TXT', udpPayloadSize: 1232 }), 3000);
    expect(txtOf(bare)).toEqual([' LOCAL']);
    expect(ecsOf(bare)).toBeUndefined();
  });
});
