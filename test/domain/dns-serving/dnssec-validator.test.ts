/**
 * A real validator judges the signed answers: BIND's `delv`, pointed at a small server around the
 * authority, trusting only the zone's DS (or its DNSKEY). Each kind of answer must come out "fully
 * validated": a positive answer, a CNAME chain, a wildcard, NODATA, and NXDOMAIN as compact denial.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dsData, generateZoneSigningKey } from '../../../src/domain/dns/serving/dnssec.js';
import { ensureDebianPackage } from '../../helpers/debian-package.js';
import type { ServingAuthority } from '../../../src/domain/dns/serving/authority.js';
import type { ServedZone } from '../../../src/domain/dns/serving/types.js';
import { a, authority, cname, rec, txt, zone } from './helpers.js';
import { startTinyServer, type TinyServer } from './tiny-server.js';

const run = promisify(execFile);
const APEX = 'signed.test';
const key = generateZoneSigningKey();
const dir = mkdtempSync(join(tmpdir(), 'edgeplane-delv-'));
let server: TinyServer;
let served: ServingAuthority;
let signed: ServedZone;

beforeAll(async () => {
  await ensureDebianPackage('delv', 'bind9-dnsutils');
  signed = zone(
    APEX,
    [
      a('www', '192.0.2.1'),
      a('www', '192.0.2.2'),
      txt('', 'v=spf1 -all'),
      a('*.apps', '192.0.2.3'),
      cname('alias', 'www.signed.test'),
      rec({ Type: 4, Name: '', Value: 'mail.signed.test', Priority: 10 }),
      rec({ Type: 14, Name: '', Value: '1 . alpn=h2,h3' }),
      rec({ Type: 7, Name: 'cdn', PullZoneId: 1 }),
    ],
    { dnssec: key },
  );
  served = authority([signed]);
  server = await startTinyServer(served);
}, 600_000);

afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

function anchor(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, `trust-anchors {\n  "${APEX}." ${text};\n};\n`);
  return file;
}

const ds = dsData(APEX, key);
const dsAnchor = () => anchor('ds.conf', `static-ds ${ds.keyTag} 13 2 "${ds.digest.toString('hex')}"`);

async function delv(anchorFile: string, name: string, type: string): Promise<string> {
  const args = ['@127.0.0.1', '-p', String(server.port), '-a', anchorFile, `+root=${APEX}`, name, type];
  const { stdout, stderr } = await run('delv', args, { timeout: 20_000 }).catch((error: { stdout?: string; stderr?: string }) => ({
    stdout: error.stdout ?? '',
    stderr: error.stderr ?? '',
  }));
  return `${stdout}${stderr}`;
}

describe('delv validates the signed zone, trusting its DS', () => {
  it('a positive answer', async () => {
    const out = await delv(dsAnchor(), 'www.signed.test', 'A');
    expect(out).toMatch(/^; fully validated$/m);
    expect(out).toMatch(/^www\.signed\.test\.\s+300\s+IN\s+A\s+192\.0\.2\.1$/m);
    expect(out).toMatch(/^www\.signed\.test\.\s+300\s+IN\s+RRSIG\s+A 13 3 300 /m);
  });

  it('other types: TXT, MX and HTTPS at the apex, the edge addresses of a PullZone record', async () => {
    for (const [name, type, line] of [
      ['signed.test', 'TXT', /IN\s+TXT\s+"v=spf1 -all"/],
      ['signed.test', 'MX', /IN\s+MX\s+10 mail\.signed\.test\./],
      ['signed.test', 'TYPE65', /IN\s+HTTPS\s+1 \. alpn="h2,h3"/],
      ['cdn.signed.test', 'A', /IN\s+A\s+198\.51\.100\.7/],
    ] as const) {
      const out = await delv(dsAnchor(), name, type);
      expect(out, `${name} ${type}`).toMatch(/^; fully validated$/m);
      expect(out).toMatch(line);
    }
  });

  it('a CNAME chain', async () => {
    const out = await delv(dsAnchor(), 'alias.signed.test', 'A');
    expect(out).toMatch(/^; fully validated$/m);
    expect(out).toMatch(/^alias\.signed\.test\.\s+300\s+IN\s+CNAME\s+www\.signed\.test\.$/m);
  });

  it('a wildcard answer', async () => {
    const out = await delv(dsAnchor(), 'anything.apps.signed.test', 'A');
    expect(out).toMatch(/^; fully validated$/m);
    expect(out).toMatch(/^anything\.apps\.signed\.test\.\s+300\s+IN\s+A\s+192\.0\.2\.3$/m);
  });

  it('NODATA', async () => {
    const out = await delv(dsAnchor(), 'www.signed.test', 'AAAA');
    expect(out).toMatch(/^; negative response, fully validated$/m);
    expect(out).toMatch(/NSEC \\000\.www\.signed\.test\. A RRSIG NSEC$/m);
  });

  it('NXDOMAIN, as compact denial (NSEC with NXNAME)', async () => {
    const out = await delv(dsAnchor(), 'no-such-name.signed.test', 'A');
    expect(out).toMatch(/^; negative response, fully validated$/m);
    expect(out).toMatch(/NSEC \\000\.no-such-name\.signed\.test\. RRSIG NSEC TYPE128$/m);
  });

  it('after a zone update (new serial, a new record), kept and new signatures validate', async () => {
    served.setZone({ ...signed, serial: signed.serial + 1, records: [...signed.records, a('new', '192.0.2.77')] });
    expect(await delv(dsAnchor(), 'new.signed.test', 'A')).toMatch(/^; fully validated$/m);
    expect(await delv(dsAnchor(), 'www.signed.test', 'A')).toMatch(/^; fully validated$/m);
    const negative = await delv(dsAnchor(), 'still-nothing.signed.test', 'A');
    expect(negative).toMatch(/^; negative response, fully validated$/m);
    expect(negative).toContain(`hostmaster.edgeplane.test. ${signed.serial + 1} 3600 600 1209600 300`);
  });

  it('trusting the DNSKEY itself works the same', async () => {
    const out = await delv(anchor('key.conf', `static-key 257 3 13 "${key.publicKey}"`), 'www.signed.test', 'A');
    expect(out).toMatch(/^; fully validated$/m);
  });

  it('and fails with a DS of another key: the check can fail', async () => {
    const other = dsData(APEX, generateZoneSigningKey());
    const out = await delv(anchor('wrong.conf', `static-ds ${other.keyTag} 13 2 "${other.digest.toString('hex')}"`), 'www.signed.test', 'A');
    expect(out).not.toMatch(/fully validated/);
    expect(out).toMatch(/resolution failed/);
  });
});
