/** The DNS plane of a test app on a free loopback port, and `dig` against it. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { startDnsPlane } from '../../src/planes/dns/plane.js';
import type { TestContext } from './app.js';
import { ensureDebianPackage } from './debian-package.js';

const run = promisify(execFile);

export interface DnsPlane {
  port: number;
  close(): Promise<void>;
}

export async function startTestDnsPlane(t: TestContext): Promise<DnsPlane> {
  const plane = await startDnsPlane(t.app.services, '127.0.0.1', 0, { rateLimitPerSecond: 0 });
  return { port: Number(new URL(plane.url).port), close: () => plane.close() };
}

export interface Dig {
  status: string;
  flags: string[];
  answer: string[][];
  authority: string[][];
  additional: string[][];
  raw: string;
}

/** `dig` with the given arguments against the plane; sections as arrays of whitespace-split records. */
export async function dig(plane: DnsPlane, ...args: string[]): Promise<Dig> {
  await ensureDebianPackage('dig', 'bind9-dnsutils');
  const { stdout } = await run('dig', ['@127.0.0.1', '-p', String(plane.port), '+norecurse', '+tries=1', '+time=3', '+nocookie', ...args]);
  const status = /status: ([A-Z]+)/.exec(stdout)?.[1] ?? '';
  const flags = (/flags: ([a-z ]+);/.exec(stdout)?.[1] ?? '').trim().split(/\s+/);
  const section = (name: string) => {
    const start = stdout.indexOf(`;; ${name} SECTION:`);
    if (start < 0) return [];
    const lines = stdout.slice(start).split('\n').slice(1);
    const out: string[][] = [];
    for (const line of lines) {
      if (line.trim() === '' || line.startsWith(';;')) break;
      out.push(line.trim().split(/\s+/));
    }
    return out;
  };
  return { status, flags, answer: section('ANSWER'), authority: section('AUTHORITY'), additional: section('ADDITIONAL'), raw: stdout };
}
