/**
 * The edge's logging per line, in one process, without HTTP: `EdgeAccessLog.add` for 20 lines a
 * millisecond of one zone (the line made, kept for the store, flushed and compressed each second)
 * and, with `fwd`, forwarded over UDP to a collector in a child process; the CPU of every thread
 * (libuv's compression included) per line. `none` is the loop alone (the events made, nothing
 * logged): subtract it. The edge bench's CPU per hit says the same with the whole hit around it,
 * but on a loaded machine its cases move by tens of microseconds; this moves by one or two.
 *
 *   npx tsx bench/edge-log-lines.ts none|log|fwd [seconds] [--dgram]
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LookupFunction } from 'node:net';
import { LogForwarding } from '../src/domain/edge/logs/forwarding/forwarder.js';
import { FORWARDING_PACE } from '../src/domain/edge/logs/forwarding/options.js';
import type { EdgeRequest, EdgeZone } from '../src/domain/edge/types.js';
import { EdgeAccessLog } from '../src/domain/edge/usage/access-log.js';
import { newPullZone } from '../src/domain/pull-zones/defaults.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';

if (process.argv.includes('--sink')) await runSink();

const mode = process.argv[2] ?? 'fwd';
const seconds = Number(process.argv[3] ?? 4);
const LINES_PER_MS = 20;

// The collector: a process of its own, counting datagrams.
const sink = fork(new URL(import.meta.url), ['--sink'], { stdio: 'inherit' });
const port = await new Promise<number>((resolve) => sink.once('message', (m) => resolve((m as { port: number }).port)));

const dir = mkdtempSync(join(tmpdir(), 'edgeplane-log-lines-'));
const store = await SqliteStore.open(join(dir, 'bench.db'));
// The lines' zone is not created in this scratch database: its foreign keys are off.
(store as unknown as { db: { pragma(p: string): void } }).db.pragma('foreign_keys = OFF');
const noLookup: LookupFunction = () => undefined;
const forwarding = new LogForwarding({
  ...FORWARDING_PACE,
  ca: [],
  lookupFor: () => noLookup,
  refusal: () => undefined,
  udpBatching: !process.argv.includes('--dgram'),
});
forwarding.start(() => undefined);
const accessLog = new EdgeAccessLog(store, () => new Date(), { forwarding });
accessLog.start();
const zone: EdgeZone = {
  ...newPullZone({
    id: 12,
    userId: 'u',
    name: 'bench',
    originUrl: 'https://origin.example',
    type: 0,
    systemHostname: { id: 1, value: 'bench.edgeplane.test' },
  }),
  EnableLogging: mode !== 'none',
  LogForwardingEnabled: mode === 'fwd',
  LogForwardingProtocol: 0,
  LogForwardingHostname: '127.0.0.1',
  LogForwardingPort: port,
};
const request = {
  method: 'GET',
  scheme: 'http',
  host: 'bench.edgeplane.test',
  path: '/obj/hit',
  query: '',
  headers: { host: 'bench.edgeplane.test', 'user-agent': 'autocannon', accept: '*/*' },
  clientIp: '127.0.0.1',
} as EdgeRequest;
const requestId = () => (Math.random().toString(16).slice(2) + Math.random().toString(16).slice(2)).slice(0, 32).padEnd(32, '0');

let lines = 0;
const started = process.cpuUsage();
const end = Date.now() + seconds * 1000;
while (Date.now() < end) {
  for (let i = 0; i < LINES_PER_MS * 5; i++, lines++) {
    accessLog.add({
      zoneId: 12,
      accountId: 1,
      zone,
      request,
      status: 200,
      bytesSent: 10240,
      cacheStatus: 'HIT',
      requestId: requestId(),
      durationMs: 0.1,
      at: new Date(),
    });
  }
  await new Promise((resolve) => setTimeout(resolve, 5));
}
await accessLog.close();
await forwarding.close();
const cpu = process.cpuUsage(started);
sink.send('count');
const received = await new Promise<number>((resolve) => sink.once('message', (m) => resolve((m as { received: number }).received)));
sink.kill();
await store.close();
rmSync(dir, { recursive: true, force: true });
console.log(
  `${mode}: ${lines} lines, ${((cpu.user + cpu.system) / lines).toFixed(2)} µs of CPU per line (user ${(cpu.user / lines).toFixed(2)}, system ${(cpu.system / lines).toFixed(2)}); the collector received ${received}; dropped: ${accessLog.dropped} kept, ${forwarding.dropped} forwarded`,
);

/** The child: a UDP socket that counts what it receives (a 4 MiB buffer: bursts land whole). */
async function runSink(): Promise<never> {
  const { createSocket } = await import('node:dgram');
  const socket = createSocket({ type: 'udp4', recvBufferSize: 4 << 20 });
  let received = 0;
  socket.on('message', () => received++);
  socket.bind(0, '127.0.0.1', () => process.send!({ port: socket.address().port }));
  process.on('message', () => process.send!({ received }));
  return new Promise<never>(() => undefined);
}
