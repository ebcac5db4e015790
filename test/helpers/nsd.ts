/**
 * Real name servers for tests and benchmarks: NSD from its Debian package (installed when missing),
 * run in the foreground as a child of the caller, on a free loopback port, with its files in the
 * caller's temporary directory, never as a system service. `startNameServer` runs any such server
 * and waits until it answers (bench/dns-servers.ts starts PowerDNS with it too).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import dgram from 'node:dgram';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { decode, encode } from 'dns-packet';
import { ensureDebianPackage } from './debian-package.js';

const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;

export interface DnsServer {
  name: string;
  pid: number;
  port: number;
  stop(): Promise<void>;
}

export interface ServedZoneFile {
  /** The zone's domain, without the final dot. */
  name: string;
  /** Path of its zone file. */
  file: string;
}

/**
 * Zone transfers with a TSIG key: NSD gives its zones to loopback clients signing with the key,
 * and with `primaryPort` it is a secondary, every zone transferred from the primary on that
 * loopback port (which notifies it, signing with the key too).
 */
export interface NsdTransfers {
  key: { algorithm: string; name: string; secret: string };
  primaryPort?: number;
}

const running = new Set<ChildProcess>();
// However the caller ends (an error, Ctrl-C), no name server outlives it.
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * NSD serving `zones` from `dir`, one server process, on loopback (UDP and TCP): on `port` when
 * given (to restart a server where its clients already look), else on a free one. As a
 * `secondary`, it transfers the zones (their files are where it keeps them) and logs at verbosity 3
 * (each transfer, in `nsd.log`); it is ready once it answers the first zone's SOA.
 */
export async function startNsd(dir: string, zones: ServedZoneFile[], port?: number, transfers?: NsdTransfers): Promise<DnsServer> {
  const secondary = transfers?.primaryPort === undefined ? undefined : { ...transfers, primaryPort: transfers.primaryPort };
  await ensureDebianPackage('nsd', 'nsd');
  mkdirSync(dir, { recursive: true });
  port ??= await freePort();
  const config = join(dir, 'nsd.conf');
  writeFileSync(
    config,
    [
      'server:',
      '  ip-address: 127.0.0.1',
      `  port: ${port}`,
      '  server-count: 1',
      '  username: ""',
      '  chroot: ""',
      `  zonesdir: "${dir}"`,
      '  database: ""',
      `  pidfile: "${join(dir, 'nsd.pid')}"`,
      `  xfrdfile: "${join(dir, 'xfrd.state')}"`,
      `  zonelistfile: "${join(dir, 'zone.list')}"`,
      `  logfile: "${join(dir, 'nsd.log')}"`,
      `  verbosity: ${secondary ? 3 : 0}`,
      // A secondary applies each transfer at once (by default it waits up to a second after the last one).
      ...(secondary ? ['  xfrd-reload-timeout: 0'] : []),
      // Its response rate limiting (200 per second per /24 by default) would drop a load generator's queries.
      '  rrl-ratelimit: 0',
      'remote-control:',
      '  control-enable: no',
      ...(transfers ? ['key:', `  name: ${transfers.key.name}`, `  algorithm: ${transfers.key.algorithm}`, `  secret: "${transfers.key.secret}"`] : []),
      ...zones.flatMap((zone) => [
        'zone:',
        `  name: ${zone.name}`,
        `  zonefile: "${zone.file}"`,
        ...(transfers ? [`  provide-xfr: 127.0.0.1 ${transfers.key.name}`] : []),
        ...(secondary
          ? [
              `  request-xfr: 127.0.0.1@${secondary.primaryPort} ${secondary.key.name}`,
              `  allow-notify: 127.0.0.1 ${secondary.key.name}`,
              // Kept IXFRs are logged ("writing zone … IXFR data"): a test sees which transfers were incremental.
              '  store-ixfr: yes',
            ]
          : []),
      ]),
      '',
    ].join('\n'),
  );
  return startNameServer('NSD', 'nsd', ['-d', '-c', config], port, zones[0]!.name, () => readLog(join(dir, 'nsd.log')));
}

function readLog(path: string): string {
  try {
    return readFileSync(path, 'utf8').slice(-2000);
  } catch {
    return '';
  }
}

/** Spawns a name server in the foreground and resolves once it answers `zone`'s SOA on `port`. */
export async function startNameServer(name: string, command: string, args: string[], port: number, zone: string, log: () => string): Promise<DnsServer> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  let output = '';
  const keep = (d: Buffer) => (output = (output + d.toString()).slice(-4000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => (running.delete(child), resolve())));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  };
  const started = Date.now();
  while (!(await answersSoa(port, zone))) {
    if (child.exitCode !== null || Date.now() - started > START_TIMEOUT_MS) {
      await stop();
      throw new Error(`${name} did not start answering on port ${port}:\n${output}\n${log()}`);
    }
  }
  return { name, pid: child.pid!, port, stop };
}

/** True once the server answers the zone's SOA with NOERROR over UDP. */
export function answersSoa(port: number, zone: string, timeoutMs = 300): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = dgram.createSocket('udp4');
    const done = (ok: boolean) => {
      clearTimeout(timer);
      socket.close();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.on('message', (message) => {
      try {
        const answer = decode(message);
        done(((answer.flags ?? 0) & 0xf) === 0 && (answer.answers?.length ?? 0) > 0);
      } catch {
        done(false);
      }
    });
    socket.on('error', () => done(false));
    socket.send(encode({ id: 1, type: 'query', questions: [{ name: zone, type: 'SOA' }] }), port, '127.0.0.1');
  });
}

/** A port free for both UDP and TCP on loopback, as a name server needs both. */
export async function freePort(): Promise<number> {
  for (;;) {
    const udp = dgram.createSocket('udp4');
    const port = await new Promise<number>((resolve) => udp.bind(0, '127.0.0.1', () => resolve(udp.address().port)));
    const tcp = net.createServer();
    const free = await new Promise<boolean>((resolve) => {
      tcp.once('error', () => resolve(false));
      tcp.listen(port, '127.0.0.1', () => resolve(true));
    });
    await new Promise<void>((resolve) => (free ? tcp.close(() => resolve()) : resolve()));
    await new Promise<void>((resolve) => udp.close(() => resolve()));
    if (free) return port;
  }
}
