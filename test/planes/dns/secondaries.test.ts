/**
 * A real secondary: NSD transfers a zone from the DNS plane with a TSIG key, is told of every
 * change by NOTIFY and takes it by IXFR, and serves a signed zone that `delv` validates. `dig -y`
 * shows what a transfer without the key, from another address, or with a wrong key gets.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsPlane } from '../../../src/planes/dns/plane.js';
import type { RunningPlane } from '../../../src/planes/plane.js';
import { createTestApp, TestClock, type TestContext } from '../../helpers/app.js';
import { ensureDebianPackage } from '../../helpers/debian-package.js';
import { type DnsServer, freePort, startNsd } from '../../helpers/nsd.js';

const run = promisify(execFile);
const KEY = { algorithm: 'hmac-sha256', name: 'xfr-key', secret: Buffer.alloc(32, 7).toString('base64') };
const DIG_KEY = `${KEY.algorithm}:${KEY.name}:${KEY.secret}`;
const dir = mkdtempSync(join(tmpdir(), 'edgeplane-secondary-'));
let t: TestContext;
let plane: RunningPlane;
let dnsPort: number;
let nsd: DnsServer;
let plainId: number;

beforeAll(async () => {
  await Promise.all([ensureDebianPackage('nsd', 'nsd'), ensureDebianPackage('dig', 'bind9-dnsutils')]);
  const nsdPort = await freePort();
  t = await createTestApp({ nameservers: 'ns1.primary.test,ns2.primary.test' }, { clock: new TestClock(Date.now()) });
  plainId = (await t.post('/dnszone', { Domain: 'plain.test' })).body.Id;
  const signedId = (await t.post('/dnszone', { Domain: 'signed.test' })).body.Id;
  for (const [zone, record] of [
    [plainId, { Type: 0, Name: 'www', Value: '192.0.2.1' }],
    [plainId, { Type: 3, Name: '', Value: 'v=spf1 -all' }],
    [plainId, { Type: 4, Name: '', Value: 'mail.plain.test', Priority: 10 }],
    [signedId, { Type: 0, Name: 'www', Value: '192.0.2.9' }],
  ] as const) {
    expect((await t.put(`/dnszone/${zone}/records`, record)).status).toBe(201);
  }
  expect((await t.post(`/dnszone/${signedId}/dnssec`)).status).toBe(200);
  plane = await startDnsPlane(t.app.services, '127.0.0.1', 0, {
    rateLimitPerSecond: 0,
    secondaries: `127.0.0.1:${nsdPort}`,
    tsigKeys: DIG_KEY,
    notify: { delayMs: 20, retryMs: 200 },
  });
  dnsPort = Number(new URL(plane.url).port);
  const zones = ['plain.test', 'signed.test'].map((name) => ({ name, file: join(dir, `${name}.zone`) }));
  nsd = await startNsd(dir, zones, nsdPort, { primaryPort: dnsPort, key: KEY });
}, 300_000);

afterAll(async () => {
  await nsd?.stop();
  await plane?.close();
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function dig(port: number, ...args: string[]): Promise<string> {
  const { stdout } = await run('dig', ['@127.0.0.1', '-p', String(port), '+norecurse', '+tries=1', '+time=2', ...args]);
  return stdout;
}

const nsdLog = () => readFileSync(join(dir, 'nsd.log'), 'utf8');

/** Asks NSD until `check` passes, for at most `ms`. */
async function eventually(ms: number, ask: () => Promise<string>, check: (out: string) => boolean): Promise<string> {
  const until = Date.now() + ms;
  for (;;) {
    const out = await ask();
    if (check(out) || Date.now() > until) return out;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('NSD as a secondary', () => {
  it('transfers the whole zone, SOA first and last', async () => {
    const axfr = await dig(dnsPort, '-y', DIG_KEY, 'plain.test', 'AXFR');
    const lines = axfr.split('\n').filter((l) => l !== '' && !l.startsWith(';') && !/\sTSIG\s/.test(l));
    expect(lines[0]).toMatch(/^plain\.test\.\s+3600\s+IN\s+SOA\s+ns1\.primary\.test\. hostmaster\.\S+ \d+ 3600 600 1209600 300$/);
    expect(lines.at(-1)).toBe(lines[0]);
    expect(axfr).toMatch(/^www\.plain\.test\.\s+300\s+IN\s+A\s+192\.0\.2\.1$/m);
    // SOA, two NS, A, TXT, MX, SOA.
    expect(lines).toHaveLength(7);
    const www = await dig(nsd.port, 'www.plain.test', 'A');
    expect(www).toMatch(/^www\.plain\.test\.\s+300\s+IN\s+A\s+192\.0\.2\.1$/m);
    expect(await dig(nsd.port, 'plain.test', 'MX')).toMatch(/IN\s+MX\s+10 mail\.plain\.test\.$/m);
  });

  it('answers a record added through the API within 2 s (NOTIFY, then IXFR), and forgets a deleted one', async () => {
    const started = Date.now();
    const added = await t.put(`/dnszone/${plainId}/records`, { Type: 0, Name: 'new', Value: '192.0.2.77' });
    expect(added.status).toBe(201);
    const out = await eventually(
      2000,
      () => dig(nsd.port, 'new.plain.test', 'A'),
      (o) => o.includes('192.0.2.77'),
    );
    expect(out).toMatch(/^new\.plain\.test\.\s+300\s+IN\s+A\s+192\.0\.2\.77$/m);
    expect(Date.now() - started).toBeLessThan(2000);
    const serial = Number(/serial (\d+)$/m.exec(nsdLog())?.[1]);
    expect(nsdLog()).toMatch(new RegExp(`notify for plain\\.test\\. from 127\\.0\\.0\\.1 serial ${serial}`));
    expect(nsdLog()).toMatch(new RegExp(`zone plain\\.test serial ${serial - 1} is updated to ${serial}`));
    // What NSD asked (IXFR from its serial) is answered with the difference alone (RFC 1995).
    const ixfr = await dig(dnsPort, '-y', DIG_KEY, 'plain.test', `IXFR=${serial - 1}`);
    const records = ixfr.split('\n').filter((l) => l !== '' && !l.startsWith(';') && !/\sTSIG\s/.test(l));
    expect(records.map((l) => l.split(/\s+/).slice(3, 5).join(' '))).toEqual([
      'SOA ns1.primary.test.',
      'SOA ns1.primary.test.',
      'SOA ns1.primary.test.',
      'A 192.0.2.77',
      'SOA ns1.primary.test.',
    ]);
    expect(records.map((l) => l.split(/\s+/)[6] ?? '')).toEqual([`${serial}`, `${serial - 1}`, `${serial}`, '', `${serial}`]);

    expect((await t.del(`/dnszone/${plainId}/records/${added.body.Id}`)).status).toBe(204);
    const gone = await eventually(
      2000,
      () => dig(nsd.port, 'new.plain.test', 'A'),
      (o) => o.includes('status: NXDOMAIN'),
    );
    expect(gone).toMatch(/status: NXDOMAIN/);
  });

  it('serves the signed zone signed, and delv validates it', async () => {
    await ensureDebianPackage('delv', 'bind9-dnsutils');
    const dnskey = (await dig(nsd.port, '+short', 'signed.test', 'DNSKEY')).trim();
    expect(dnskey).toMatch(/^257 3 13 /);
    const [, , , ...key] = dnskey.split(/\s+/);
    const anchor = join(dir, 'anchor.conf');
    writeFileSync(anchor, `trust-anchors {\n  "signed.test." static-key 257 3 13 "${key.join('')}";\n};\n`);
    const delv = async (name: string, type: string) => {
      const args = ['@127.0.0.1', '-p', String(nsd.port), '-a', anchor, '+root=signed.test', name, type];
      const { stdout, stderr } = await run('delv', args, { timeout: 20_000 }).catch((e: { stdout?: string; stderr?: string }) => ({
        stdout: e.stdout ?? '',
        stderr: e.stderr ?? '',
      }));
      return `${stdout}${stderr}`;
    };
    expect(await delv('www.signed.test', 'A')).toMatch(/^; fully validated$/m);
    // Denial (NXDOMAIN, NODATA) from NSD's own NSEC chain, which only the transfer gave it.
    expect(await delv('nothing.signed.test', 'A')).toMatch(/^; negative response, fully validated$/m);
    expect(await delv('www.signed.test', 'TXT')).toMatch(/^; negative response, fully validated$/m);
  });

  it('refuses a transfer without the key, from another address, and with a wrong key (BADSIG)', async () => {
    expect(await dig(dnsPort, 'plain.test', 'AXFR')).toMatch(/Transfer failed/);
    const elsewhere = await dig(dnsPort, '-b', '127.0.0.2', '-y', DIG_KEY, 'plain.test', 'AXFR');
    expect(elsewhere).toMatch(/Transfer failed/);
    const wrong = await dig(dnsPort, '-y', `${KEY.algorithm}:${KEY.name}:${Buffer.alloc(32, 8).toString('base64')}`, 'plain.test', 'AXFR');
    expect(wrong).toMatch(/BADSIG|tsig indicates error/i);
    const unknown = await dig(dnsPort, '-y', `${KEY.algorithm}:other-key:${KEY.secret}`, 'plain.test', 'AXFR');
    expect(unknown).toMatch(/BADKEY|tsig indicates error/i);
  });
});
