/**
 * `npx tsx bench/dns-transfer.ts`: zone transfers of the bench's 10,000-record zone. The same
 * client (a TSIG-signed AXFR over one TCP connection, read to its closing SOA) transfers it from
 * the built server's DNS plane and from NSD serving the same zone file; then IXFR of one change,
 * asked right after the change's 201 (its difference is worked out by that request) and after the
 * NOTIFY delay (as a secondary asks, the difference made already). Medians of
 * RUNS, and `dig -y` checks that every message of the plane's AXFR verifies.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import dnsPacket from 'dns-packet';
import { TsigSigner } from '../src/planes/dns/transfer/tsig.js';
import { parseTsigKeys } from '../src/schemas/dns-secondaries.js';
import { startNsd } from '../test/helpers/nsd.js';
import { createZone } from './dns-bench.js';
import { DNS_ZONE, writeZoneFile, ZONE_RECORDS } from './dns-zone.js';
import { Client } from './seed.js';
import { ensureBuilt, killAll, startEdgeplane } from './server.js';

const RUNS = 7;
/** Longer than the NOTIFY's burst delay (250 ms): the secondary would be asking by then. */
const NOTIFY_WAIT_MS = 400;
const KEY = { algorithm: 'hmac-sha256', name: 'bench-xfr', secret: randomBytes(32).toString('base64') };
const DIG_KEY = `${KEY.algorithm}:${KEY.name}:${KEY.secret}`;
const [tsigKey] = parseTsigKeys(DIG_KEY);
const run = promisify(execFile);

/** One transfer: ms until the closing SOA, records received, messages. */
function transfer(port: number, type: 'AXFR' | 'IXFR', serial?: number): Promise<{ ms: number; records: number; messages: number; serial: number }> {
  return new Promise((resolve, reject) => {
    const id = Math.floor(Math.random() * 65536);
    const authorities =
      serial === undefined
        ? []
        : [{ name: DNS_ZONE, type: 'SOA' as const, ttl: 0, data: { mname: '.', rname: '.', serial, refresh: 0, retry: 0, expire: 0, minimum: 0 } }];
    const query = new TsigSigner(tsigKey!, id).sign(
      dnsPacket.encode({ type: 'query', id, questions: [{ name: DNS_ZONE, type }], authorities }),
      Math.floor(Date.now() / 1000),
    );
    const framed = Buffer.concat([Buffer.from([query.length >> 8, query.length & 255]), query]);
    const socket = net.connect(port, '127.0.0.1');
    let pending = Buffer.alloc(0);
    let records = 0;
    let messages = 0;
    let first: number | undefined;
    let soas = 0;
    const started = performance.now();
    socket.on('connect', () => socket.write(framed));
    socket.on('error', reject);
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 2 && pending.length >= 2 + pending.readUInt16BE(0)) {
        const message = dnsPacket.decode(pending.subarray(2, 2 + pending.readUInt16BE(0)));
        pending = pending.subarray(2 + pending.readUInt16BE(0));
        messages++;
        const rcode = (message.flags ?? 0) & 15;
        if (rcode !== 0) return reject(new Error(`${type}: rcode ${rcode}`));
        for (const answer of message.answers ?? []) {
          records++;
          if (answer.type !== 'SOA') continue;
          const s = (answer.data as { serial: number }).serial;
          first ??= s;
          soas++;
          // The closing SOA: the second of an AXFR; for an IXFR, the current serial again, last of its
          // message, or the SOA alone (the client is current).
          const last = answer === message.answers!.at(-1);
          const ends = type === 'AXFR' ? soas === 2 : last && ((soas > 1 && s === first) || (messages === 1 && message.answers!.length === 1));
          if (ends) {
            socket.destroy();
            return resolve({ ms: performance.now() - started, records, messages, serial: first });
          }
        }
      }
    });
  });
}

const round = (ms: number) => Math.round(ms * 10) / 10;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  ensureBuilt();
  const workDir = mkdtempSync(join(tmpdir(), 'edgeplane-xfr-bench-'));
  const bootstrapKey = `bench-${randomBytes(16).toString('hex')}`;
  const server = await startEdgeplane({
    dbFile: join(workDir, 'bench.db'),
    bootstrapKey,
    settings: { LOG_LEVEL: 'warn', EDGEPLANE_DNS_SECONDARIES: '127.0.0.1:9', EDGEPLANE_DNS_TSIG_KEYS: DIG_KEY },
  });
  const nsdDir = join(workDir, 'nsd');
  mkdirSync(nsdDir);
  const zoneFile = join(workDir, `${DNS_ZONE}.zone`);
  writeZoneFile(zoneFile);
  const nsd = await startNsd(nsdDir, [{ name: DNS_ZONE, file: zoneFile }], undefined, { key: KEY });
  try {
    const client = new Client(server.url, bootstrapKey);
    const zoneId = await createZone(client, zoneFile);
    const port = Number(new URL(server.planes['dns']!.replace(/^dns:/, 'http:')).port);
    // The first transfer of a version builds its snapshot (and a signed zone's signatures): shown apart.
    const firstAxfr = await transfer(port, 'AXFR');
    const edgeplane: number[] = [];
    const reference: number[] = [];
    let sizes = { edgeplane: firstAxfr.records, nsd: 0, messages: firstAxfr.messages, nsdMessages: 0 };
    for (let i = 0; i < RUNS; i++) {
      edgeplane.push((await transfer(port, 'AXFR')).ms);
      const theirs = await transfer(nsd.port, 'AXFR');
      reference.push(theirs.ms);
      sizes = { ...sizes, nsd: theirs.records, nsdMessages: theirs.messages };
    }
    const { stdout } = await run('dig', ['@127.0.0.1', '-p', String(port), '-y', DIG_KEY, DNS_ZONE, 'AXFR', '+noall', '+stats'], { maxBuffer: 64 << 20 });
    const verified = /XFR size: (\d+) records \(messages (\d+)/.exec(stdout);
    if (!verified || /tsig|fail/i.test(stdout)) throw new Error(`dig -y could not verify the plane's AXFR:\n${stdout}`);

    // IXFR right after the change's 201 (its snapshot and difference are made by that request), and
    // as a secondary asks it, after the NOTIFY (whose sending made them already).
    const ixfr = { immediate: [] as number[], afterNotify: [] as number[] };
    let serial = firstAxfr.serial;
    for (let i = 0; i < 2 * RUNS; i++) {
      const afterNotify = i % 2 === 1;
      await client.call('PUT', `/dnszone/${zoneId}/records`, 201, { Type: 0, Name: `ixfr${i}`, Value: `192.0.2.${i + 1}` });
      if (afterNotify) await new Promise((resolve) => setTimeout(resolve, NOTIFY_WAIT_MS));
      const result = await transfer(port, 'IXFR', serial);
      if (result.records !== 5) throw new Error(`IXFR of one added record sent ${result.records} records, not 5 (new SOA, old SOA, new SOA, A, new SOA)`);
      (afterNotify ? ixfr.afterNotify : ixfr.immediate).push(result.ms);
      serial = result.serial;
    }
    const report = {
      zoneRecords: ZONE_RECORDS,
      axfr: {
        edgeplaneFirstMs: firstAxfr.ms,
        edgeplaneMs: median(edgeplane),
        nsdMs: median(reference),
        ratio: median(edgeplane) / median(reference),
        ...sizes,
        digVerified: `${verified[1]} records, ${verified[2]} messages`,
      },
      ixfrOneChangeMs: { immediate: median(ixfr.immediate), afterNotify: median(ixfr.afterNotify) },
      ixfrRuns: { immediate: ixfr.immediate.map(round), afterNotify: ixfr.afterNotify.map(round) },
      loadAverage: loadavg()[0],
    };
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } finally {
    await nsd.stop();
    await server.stop();
    rmSync(workDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  killAll();
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
