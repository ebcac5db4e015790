/**
 * The reference name servers the DNS plane is measured against, serving the same zone: NSD and
 * PowerDNS Authoritative (its SQLite backend), from Debian packages installed when missing. Each
 * runs in the foreground as a child of the benchmark, on a free loopback port, with its files in
 * the benchmark's temporary directory, never as a system service. Each gets one worker, as the
 * DNS plane has one event loop: NSD one server process, PowerDNS one receiver thread and one
 * distributor thread; both keep their other defaults (PowerDNS's packet cache included).
 */
import { type ChildProcess, execFileSync, execSync, spawn } from 'node:child_process';
import dgram from 'node:dgram';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { decode, encode } from 'dns-packet';
import { ensureDebianPackage } from '../test/helpers/debian-package.js';
import { DNS_ZONE } from './dns-zone.js';

const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;

export interface DnsServer {
  name: string;
  pid: number;
  port: number;
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();
// However the benchmark ends (an error, Ctrl-C: run.ts exits), no name server outlives it.
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export async function startNsd(dir: string, zoneFile: string): Promise<DnsServer> {
  await ensureDebianPackage('nsd', 'nsd');
  const port = await freePort();
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
      '  verbosity: 0',
      // Its response rate limiting (200 per second per /24 by default) would drop the load generator's queries.
      '  rrl-ratelimit: 0',
      'remote-control:',
      '  control-enable: no',
      'zone:',
      `  name: ${DNS_ZONE}`,
      `  zonefile: "${zoneFile}"`,
      '',
    ].join('\n'),
  );
  return startServer('NSD', 'nsd', ['-d', '-c', config], port, () => readLog(join(dir, 'nsd.log')));
}

export async function startPowerDns(dir: string, zoneFile: string): Promise<DnsServer> {
  await ensureDebianPackage('pdns_server', 'pdns-server');
  await ensureDebianPackage('pdnsutil', 'pdns-server');
  // The backend is a package without a command: its schema file tells whether it is there.
  const schema = '/usr/share/pdns-backend-sqlite3/schema/schema.sqlite3.sql';
  if (!existsSync(schema)) aptInstall('pdns-backend-sqlite3');
  const database = join(dir, 'pdns.sqlite3');
  rmSync(database, { force: true });
  const db = new Database(database);
  db.exec(readFileSync(schema, 'utf8'));
  db.close();
  const port = await freePort();
  writeFileSync(
    join(dir, 'pdns.conf'),
    [
      'launch=gsqlite3',
      `gsqlite3-database=${database}`,
      'local-address=127.0.0.1',
      `local-port=${port}`,
      'daemon=no',
      'guardian=no',
      'disable-syslog=yes',
      `socket-dir=${dir}`,
      'write-pid=no',
      'loglevel=3',
      'receiver-threads=1',
      'distributor-threads=1',
      'security-poll-suffix=',
      '',
    ].join('\n'),
  );
  execFileSync('pdnsutil', [`--config-dir=${dir}`, 'load-zone', DNS_ZONE, zoneFile], { stdio: ['ignore', 'ignore', 'pipe'] });
  return startServer('PowerDNS', 'pdns_server', [`--config-dir=${dir}`], port, () => '');
}

function aptInstall(pkg: string): void {
  const sudo = process.getuid?.() === 0 ? '' : 'sudo -n ';
  execSync(`${sudo}apt-get update && ${sudo}apt-get install -y --no-install-recommends ${pkg}`, {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}

function readLog(path: string): string {
  try {
    return readFileSync(path, 'utf8').slice(-2000);
  } catch {
    return '';
  }
}

async function startServer(name: string, command: string, args: string[], port: number, log: () => string): Promise<DnsServer> {
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
  while (!(await answersSoa(port))) {
    if (child.exitCode !== null || Date.now() - started > START_TIMEOUT_MS) {
      await stop();
      throw new Error(`${name} did not start answering on port ${port}:\n${output}\n${log()}`);
    }
  }
  return { name, pid: child.pid!, port, stop };
}

/** True once the server answers the zone's SOA with NOERROR over UDP. */
export function answersSoa(port: number, timeoutMs = 300): Promise<boolean> {
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
    socket.send(encode({ id: 1, type: 'query', questions: [{ name: DNS_ZONE, type: 'SOA' }] }), port, '127.0.0.1');
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
