/**
 * A real client: BIND's `dig` (Debian bind9-dnsutils, installed when missing) asks the DNS plane
 * over UDP and TCP, with its own EDNS options (a cookie), and falls back to TCP on its own when
 * the UDP answer is truncated.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureDebianPackage } from '../../helpers/debian-package.js';
import { startPlane } from './start.js';

const run = promisify(execFile);

beforeAll(() => ensureDebianPackage('dig', 'bind9-dnsutils'), 300_000);

async function dig(port: number, ...args: string[]): Promise<string> {
  const { stdout } = await run('dig', ['@127.0.0.1', '-p', String(port), '+time=2', '+tries=1', ...args]);
  return stdout;
}

describe('dig', () => {
  it('gets an authoritative answer over UDP and over TCP', async () => {
    const { plane } = await startPlane();
    for (const transport of ['+notcp', '+tcp']) {
      const out = await dig(plane.port, transport, 'example.test', 'A');
      expect(out).toMatch(/status: NOERROR/);
      expect(out).toMatch(/flags: qr aa rd;/);
      expect(out).toMatch(/^example\.test\.\s+300\s+IN\s+A\s+192\.0\.2\.1$/m);
      expect(out).toMatch(/EDNS: version: 0, flags:; udp: 1232/);
    }
  });

  it('retries over TCP on its own when the UDP answer is truncated, and gets it whole', async () => {
    const { plane, authority } = await startPlane();
    const out = await dig(plane.port, 'big.example.test', 'TXT');
    expect(out).toMatch(/Truncated, retrying in TCP mode/);
    expect(out.match(/^big\.example\.test\.\s+60\s+IN\s+TXT/gm)).toHaveLength(15);
    expect(authority.seen.map((s) => s.context.transport)).toEqual(['udp', 'tcp']);
  });

  it('reads REFUSED for a name outside every zone', async () => {
    const { plane } = await startPlane();
    expect(await dig(plane.port, 'elsewhere.invalid', 'A')).toMatch(/status: REFUSED/);
  });
});
