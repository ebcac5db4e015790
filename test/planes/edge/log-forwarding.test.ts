/**
 * Log forwarding (`LogForwardingEnabled`): the lines of requests made through the edge reach real
 * syslog collectors — UDP, TCP with octet counting, TLS verified against
 * EDGEPLANE_LOG_FORWARDING_CA — as RFC 5424 messages with the zone's token, in its format,
 * anonymised as it asks; a collector that goes away gets its queued lines when it is back, and a
 * queue past its bound drops (and counts) the newest.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { LookupFunction } from 'node:net';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRootCertificate, LocalCertificateAuthority } from '../../../src/domain/certificates/local-ca.js';
import { importSigningKey } from '../../../src/domain/certificates/x509.js';
import { MAX_DATAGRAM } from '../../../src/domain/edge/logs/forwarding/datagrams.js';
import { LogForwarding } from '../../../src/domain/edge/logs/forwarding/forwarder.js';
import { FORWARDING_PACE } from '../../../src/domain/edge/logs/forwarding/options.js';
import type { EdgeZone } from '../../../src/domain/edge/types.js';
import { createTestApp, type TestContext } from '../../helpers/app.js';
import { createPullZone, type EdgePlane, startEdgePlane, startOrigin, type TestOrigin } from '../../helpers/edge-plane.js';
import { startSyslogReceiver } from '../../helpers/syslog-receiver.js';
import { within } from '../../helpers/within.js';

const COLLECTOR = 'collector.test';
/** `collector.test` is the loopback collector; other names resolve as usual. */
const lookup: LookupFunction = (hostname, options, callback) => {
  if (hostname !== COLLECTOR) return void import('node:dns').then((dns) => dns.lookup(hostname, options, callback));
  if (options.all) return (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: '127.0.0.1', family: 4 }]);
  callback(null, '127.0.0.1', 4);
};

let t: TestContext;
let origin: TestOrigin;
let edge: EdgePlane;
let dir: string;
let leaf: { cert: string; key: string };
let caPem: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'edgeplane-forwarding-'));
  const root = await createRootCertificate('forwarding-test', new Date());
  const authority = new LocalCertificateAuthority('forwarding-test', root.certificatePem, await importSigningKey(root.privateKeyPem));
  const issued = await authority.issue([COLLECTOR], 0, new Date());
  leaf = { cert: issued.certificatePem, key: issued.privateKeyPem };
  caPem = root.certificatePem;
  writeFileSync(join(dir, 'ca.pem'), caPem);
  t = await createTestApp({ logForwardingCa: join(dir, 'ca.pem') }, { originLookup: lookup });
  origin = await startOrigin();
  edge = await startEdgePlane(t);
});
afterAll(async () => {
  await edge.close();
  await origin.close();
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A message's parts: RFC 5424's header fields, its structured data and the line. */
function parse(message: string) {
  const m = /^<(\d+)>1 (\S+) (\S+) (\S+) (\S+) (\S+) (-|\[.*?[^\\]\]) (.*)$/.exec(message);
  if (!m) throw new Error(`not an RFC 5424 message: ${message}`);
  return { priority: Number(m[1]), time: m[2]!, app: m[4]!, msgId: m[6]!, data: m[7]!, line: m[8]! };
}

/** A pull zone forwarding its lines to the collector on `port`. */
const forwardingZone = (name: string, protocol: 0 | 1 | 2, port: number, settings: Record<string, unknown> = {}) =>
  createPullZone(t, name, origin.url, {
    LogForwardingEnabled: true,
    LogForwardingProtocol: protocol,
    LogForwardingHostname: '127.0.0.1',
    LogForwardingPort: port,
    ...settings,
  });

describe('log forwarding', () => {
  it('sends plain lines over UDP with the token, the address anonymised to its last octet', async () => {
    const receiver = await startSyslogReceiver('udp');
    const zone = await forwardingZone('fwd-udp', 0, receiver.port, { LogForwardingToken: 'tok"en]1', LogForwardingFormat: 0 });
    const first = await edge.get(zone.host, '/a.txt?x=1', { 'user-agent': 'agent/1', referer: 'https://ref.example/' });
    const second = await edge.get(zone.host, '/a.txt?x=1');
    await within(2000, async () => receiver.messages.length === 2);
    const [a, b] = receiver.messages.map(parse);
    expect(a).toMatchObject({ priority: 134, app: 'edgeplane', msgId: 'access', data: '[edgeplane@32473 token="tok\\"en\\]1"]' });
    expect(Date.parse(a!.time)).toBeGreaterThan(Date.now() - 10_000);
    const fields = a!.line.split('|');
    expect(fields).toHaveLength(12);
    expect([fields[0], fields[1], fields[4], fields[5], fields[6], fields[7], fields[8], fields[9], fields[10], fields[11]]).toEqual([
      'MISS',
      '200',
      String(zone.Id),
      '127.0.0.0',
      'https://ref.example/',
      `http://${zone.host}/a.txt?x=1`,
      'LOCAL',
      'agent/1',
      first.headers['cdn-requestid'],
      '-',
    ]);
    expect(b!.line).toMatch(
      new RegExp(`^HIT\\|200\\|\\d+\\|${second.body.length}\\|${zone.Id}\\|127\\.0\\.0\\.0\\|-\\|.*\\|${second.headers['cdn-requestid']}\\|-$`),
    );
    await receiver.stop();
  });

  it('sends JSON lines over TCP, octet-counted, the address dropped', async () => {
    const receiver = await startSyslogReceiver('tcp');
    const zone = await forwardingZone('fwd-tcp', 1, receiver.port, { LogForwardingFormat: 1, LogAnonymizationType: 1 });
    const res = await edge.get(zone.host, '/b.txt');
    await within(2000, async () => receiver.messages.length === 1);
    const message = parse(receiver.messages[0]!);
    expect(message.data).toBe('-');
    expect(JSON.parse(message.line)).toEqual({
      CacheStatus: 'MISS',
      Status: 200,
      Timestamp: expect.any(Number),
      BytesSent: res.body.length,
      PullZoneId: zone.Id,
      RemoteIp: '0.0.0.0',
      Referer: '',
      Url: `http://${zone.host}/b.txt`,
      EdgeLocation: 'LOCAL',
      UserAgent: '',
      RequestId: res.headers['cdn-requestid'],
      CountryCode: '',
    });
    await receiver.stop();
  });

  it('verifies a TLS collector against EDGEPLANE_LOG_FORWARDING_CA, and loses nothing while it is down', async () => {
    const receiver = await startSyslogReceiver('tls', leaf);
    const zone = await forwardingZone('fwd-tls', 2, receiver.port, { LogForwardingHostname: COLLECTOR, LogForwardingToken: 'secret-token' });
    const ids = [(await edge.get(zone.host, '/c.txt')).headers['cdn-requestid']];
    await within(2000, async () => receiver.messages.length === 1);
    await receiver.stop();
    const collector = t.app.services.logForwarding.collectorOf(zone as unknown as EdgeZone)!;
    // The collector's end reaches the edge before the next lines do.
    await new Promise((resolve) => setTimeout(resolve, 50));
    for (let i = 0; i < 4; i++) ids.push((await edge.get(zone.host, `/c${i}.txt`)).headers['cdn-requestid']);
    await within(2000, async () => collector.queued === 4);
    await receiver.restart();
    await within(3000, async () => receiver.messages.length === 5);
    const received = receiver.messages.map(parse);
    expect(received.every((m) => m.data === '[edgeplane@32473 token="secret-token"]')).toBe(true);
    expect(received.map((m) => m.line.split('|')[10])).toEqual(ids);
    expect(collector.dropped).toBe(0);
    await receiver.stop();
  });

  it.each([
    ['through the addon, a turn of lines per sendmmsg', true],
    ['through node:dgram', false],
  ])('sends a burst of lines over UDP %s, each once and in order, one too long for a datagram cut', async (_how, udpBatching) => {
    const receiver = await startSyslogReceiver('udp');
    const forwarding = new LogForwarding({ ...FORWARDING_PACE, ca: [], lookupFor: () => lookup, refusal: () => undefined, udpBatching });
    forwarding.start(() => undefined);
    const zone = {
      Id: 3,
      LogForwardingProtocol: 0,
      LogForwardingHostname: '127.0.0.1',
      LogForwardingPort: receiver.port,
      LogForwardingFormat: 0,
      LogForwardingToken: 't',
    } as unknown as EdgeZone;
    const long = `https://a.example/${'x'.repeat(MAX_DATAGRAM)}`;
    // More than one batch of the addon's (128); few enough bytes for the receiver's buffer.
    for (let i = 0; i < 300; i++) forwarding.add(zone, 1, `HIT|200|${i}|1|3|-|-|${i === 150 ? long : '-'}|-|-|r${i}|-`);
    await within(3000, async () => receiver.messages.length === 300);
    const messages = receiver.messages.map((m) => parse(m));
    expect(messages.map((m, i) => (i === 150 ? 'cut' : m.line.split('|')[10]))).toEqual([...Array(300).keys()].map((i) => (i === 150 ? 'cut' : `r${i}`)));
    expect(Buffer.byteLength(receiver.messages[150]!)).toBe(MAX_DATAGRAM);
    expect(messages.every((m) => m.data === '[edgeplane@32473 token="t"]')).toBe(true);
    expect(forwarding.collectorOf(zone)!.sent).toBe(300);
    await forwarding.close();
    await receiver.stop();
  });

  it('keeps at most its bound of lines for a collector that is down, dropping and counting the rest', async () => {
    const port = await freePort();
    const forwarding = new LogForwarding({ ...FORWARDING_PACE, maxQueued: 3, ca: [], lookupFor: () => lookup, refusal: () => undefined });
    const errors: unknown[] = [];
    forwarding.start((error) => errors.push(error));
    const zone = {
      Id: 1,
      LogForwardingProtocol: 1,
      LogForwardingHostname: '127.0.0.1',
      LogForwardingPort: port,
      LogForwardingFormat: 0,
      LogForwardingToken: null,
    } as unknown as EdgeZone;
    for (let i = 0; i < 5; i++) forwarding.add(zone, 1, `MISS|200|${i}|1|1|-|-|-|-|-|r${i}|-`);
    expect(forwarding.dropped).toBe(2);
    await within(2000, async () => errors.length === 1);
    const back = await startSyslogReceiver('tcp', undefined, port);
    await within(3000, async () => back.messages.length === 3);
    expect(back.messages.map((m) => parse(m).line.split('|')[10])).toEqual(['r0', 'r1', 'r2']);
    expect(forwarding.collectorOf(zone)!.sent).toBe(3);
    await forwarding.close();
    await back.stop();
  });

  it('refuses a TLS collector whose certificate no trusted authority signed', async () => {
    const stranger = await createRootCertificate('another-authority', new Date());
    const other = new LocalCertificateAuthority('another-authority', stranger.certificatePem, await importSigningKey(stranger.privateKeyPem));
    const issued = await other.issue([COLLECTOR], 0, new Date());
    const receiver = await startSyslogReceiver('tls', { cert: issued.certificatePem, key: issued.privateKeyPem });
    const forwarding = new LogForwarding({ ...FORWARDING_PACE, ca: [caPem], lookupFor: () => lookup, refusal: () => undefined });
    const errors: unknown[] = [];
    forwarding.start((error) => errors.push(error));
    const zone = {
      Id: 2,
      LogForwardingProtocol: 2,
      LogForwardingHostname: COLLECTOR,
      LogForwardingPort: receiver.port,
      LogForwardingFormat: 0,
    } as unknown as EdgeZone;
    forwarding.add(zone, 1, 'MISS|200|1|1|2|-|-|-|-|-|r|-');
    await within(2000, async () => errors.length === 1);
    expect(String(errors[0])).toMatch(/certificate/i);
    expect(receiver.messages).toEqual([]);
    expect(forwarding.collectorOf(zone)!.queued).toBe(1);
    await forwarding.close();
    await receiver.stop();
  });
});

/** A port nothing listens on (yet). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
