import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../helpers/app.js';

const DELAY = 1_000;
const INTERVAL = 60_000;
let t: TestContext;
let zoneId: number;
beforeEach(async () => {
  t = await createTestApp({ jobDelayMs: DELAY, monitorIntervalMs: INTERVAL });
  zoneId = (await t.post('/dnszone', { Domain: 'accel.example' })).body.Id;
});
afterEach(async () => {
  await t.close();
});

const record = async (id: number) => ((await t.get(`/dnszone/${zoneId}`)).body.Records as { Id: number }[]).find((r) => r.Id === id) as Record<string, unknown>;

describe('DNS record acceleration', () => {
  it('goes Pending → Processing → Completed and links a new pull zone both ways', async () => {
    const added = (await t.put(`/dnszone/${zoneId}/records`, { Type: 0, Name: 'www', Value: '192.0.2.7', Accelerated: true })).body;
    expect(added).toMatchObject({ Accelerated: true, AccelerationStatus: 1, AcceleratedPullZoneId: 0 });
    await t.runJobs(DELAY - 1);
    expect((await record(added.Id)).AccelerationStatus).toBe(1);
    await t.runJobs(1);
    expect((await record(added.Id)).AccelerationStatus).toBe(2);
    await t.runJobs(DELAY);
    const done = await record(added.Id);
    expect(done).toMatchObject({ AccelerationStatus: 3, AcceleratedPullZoneId: expect.any(Number) });
    const zone = (await t.get(`/pullzone/${String(done.AcceleratedPullZoneId)}`)).body;
    expect(zone).toMatchObject({
      Name: `www-accel-example-${added.Id}`,
      OriginUrl: 'http://192.0.2.7',
      DnsRecordId: added.Id,
      DnsZoneId: zoneId,
      DnsRecordValue: '192.0.2.7',
    });
  });

  it('fails when the pull zone cannot be made, and stops when acceleration is turned off', async () => {
    const first = (await t.put(`/dnszone/${zoneId}/records`, { Type: 0, Name: 'a', Value: '192.0.2.8', Accelerated: true })).body;
    await t.post('/pullzone', { Name: `a-accel-example-${first.Id}`, OriginUrl: 'https://o.example' });
    await t.runJobs(DELAY);
    await t.runJobs(DELAY);
    expect((await record(first.Id)).AccelerationStatus).toBe(4);

    const second = (await t.put(`/dnszone/${zoneId}/records`, { Type: 0, Name: 'b', Value: '192.0.2.9', Accelerated: true })).body;
    await t.post(`/dnszone/${zoneId}/records/${second.Id}`, { Accelerated: false });
    await t.runJobs(DELAY);
    await t.runJobs(DELAY);
    expect(await record(second.Id)).toMatchObject({ Accelerated: false, AcceleratedPullZoneId: 0 });
  });
});

describe('DNS record monitoring', () => {
  let server: Server;
  let port: number;
  beforeEach(async () => {
    server = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterEach(async () => {
    await new Promise((r) => server.close(r));
  });

  it('probes Http and Ping targets on the interval and reports Online and Offline', async () => {
    const http = (await t.put(`/dnszone/${zoneId}/records`, { Type: 0, Name: 'web', Value: '127.0.0.1', Port: port, MonitorType: 2 })).body;
    const ping = (await t.put(`/dnszone/${zoneId}/records`, { Type: 0, Name: 'tcp', Value: '127.0.0.1', Port: port, MonitorType: 1 })).body;
    expect(http.MonitorStatus).toBe(0);
    await t.runJobs();
    expect((await record(http.Id)).MonitorStatus).toBe(1);
    expect((await record(ping.Id)).MonitorStatus).toBe(1);

    await new Promise((r) => server.close(r));
    server = createServer();
    await t.runJobs(INTERVAL - 1);
    expect((await record(http.Id)).MonitorStatus).toBe(1);
    await t.runJobs(1);
    expect((await record(http.Id)).MonitorStatus).toBe(2);
    expect((await record(ping.Id)).MonitorStatus).toBe(2);
  });

  it('stops probing when monitoring is turned off', async () => {
    const rec = (await t.put(`/dnszone/${zoneId}/records`, { Type: 0, Name: 'w', Value: '127.0.0.1', Port: port, MonitorType: 1 })).body;
    await t.runJobs();
    await t.post(`/dnszone/${zoneId}/records/${rec.Id}`, { MonitorType: 0 });
    expect(await t.runJobs(INTERVAL)).toBe(1);
    expect(await t.runJobs(INTERVAL)).toBe(0);
  });
});
