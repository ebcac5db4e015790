/**
 * Varnish Cache (Debian's `varnish`) in front of the same origin, the reference the edge's cache
 * hits are measured against: run in the foreground as a child of the benchmark on a free loopback
 * port, its working directory in the benchmark's temporary directory, its built-in VCL (which
 * caches what the origin's Cache-Control allows, as the edge does) with one addition: stylesheets
 * are gzipped once as they are fetched (`beresp.do_gzip`) and kept so, the gzip copy served as it
 * is to clients that accept gzip (what the edge's compressed hit is measured against); 256 MB of
 * memory storage.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureDebianPackage } from '../test/helpers/debian-package.js';
import { freePort } from '../test/helpers/nsd.js';

export interface Varnish {
  url: string;
  pid: number;
  /** The cache process varnishd forks (its threads serve the requests): what its CPU is read from. */
  workerPid: number | undefined;
  stop(): Promise<void>;
}

export async function startVarnish(dir: string, originUrl: string): Promise<Varnish> {
  await ensureDebianPackage('varnishd', 'varnish');
  const port = await freePort();
  const workDir = join(dir, 'varnish');
  mkdirSync(workDir, { recursive: true });
  const origin = new URL(originUrl);
  const vcl = join(workDir, 'bench.vcl');
  writeFileSync(vcl, vclFor(origin));
  const child = spawn('varnishd', ['-F', '-j', 'none', '-n', workDir, '-a', `127.0.0.1:${port}`, '-f', vcl, '-s', 'malloc,256m', '-p', 'feature=+http2'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`varnishd exited (code ${child.exitCode}):\n${output}`);
    try {
      const res = await fetch(`${url}/obj/ready`, { signal: AbortSignal.timeout(1_000) });
      await res.arrayBuffer();
      if (res.status === 200) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`varnishd did not answer within 20 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, pid: child.pid!, workerPid: childOf(child.pid!), stop };
}

/** The built-in VCL's behaviour (it runs after these subroutines), stylesheets gzipped at fetch. */
const vclFor = (origin: URL) => `vcl 4.1;
backend origin { .host = "${origin.hostname}"; .port = "${origin.port}"; }
sub vcl_backend_response {
  if (beresp.http.content-type ~ "^text/css") { set beresp.do_gzip = true; }
}
`;

/** The first process whose parent is `pid` (from /proc/<pid>/stat: the field after the state). */
function childOf(pid: number): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1] === String(pid)) return Number(entry);
    } catch {
      // Gone meanwhile.
    }
  }
  return undefined;
}
