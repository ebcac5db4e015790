/**
 * `edgeplane ca export`: the root of the local certificate authority, as a developer adds it to a
 * trust store. It is created once in the store and shared: the CLI, the server and a second
 * process on the same data all see the same root, and the certificates they issue verify with it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { X509Certificate } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../helpers/app.js';
import { cli } from '../../helpers/cli.js';
import { CDN_DOMAIN } from './support.js';

let t: TestContext;
let dir: string;
beforeEach(async () => {
  t = await createTestApp({ cdnDomain: CDN_DOMAIN });
  dir = mkdtempSync(join(tmpdir(), 'edgeplane-ca-'));
});
afterEach(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

const env = () => ({ DATABASE_URL: t.databaseUrl, EDGEPLANE_MASTER_KEY: t.masterKey.toString('hex') });

describe('edgeplane ca export', () => {
  it('prints the root the server signs with, created once and kept across restarts', async () => {
    // Exported before anything was issued: the CLI creates the root in the store.
    const printed = await cli(['ca', 'export'], env());
    expect(printed.code, printed.stderr).toBe(0);
    const root = new X509Certificate(printed.stdout);
    expect(root.ca).toBe(true);
    expect(root.subject).toMatch(/^CN=edgeplane local CA \([0-9a-f]{12}\)\nO=edgeplane$/);
    expect(root.checkIssued(root)).toBe(true);
    expect(Date.parse(root.validTo) - Date.now()).toBeGreaterThan(9 * 365 * 24 * 3600 * 1000);

    expect(await t.app.services.certificates.rootPem()).toBe(printed.stdout);
    const material = await t.app.services.certificates.edge.forName(`zone.${CDN_DOMAIN}`);
    expect(new X509Certificate(material.certificatePem).verify(root.publicKey)).toBe(true);

    await t.restart();
    expect(await t.app.services.certificates.rootPem()).toBe(printed.stdout);

    const file = join(dir, 'root.pem');
    const written = await cli(['ca', 'export', file, '--json'], env());
    expect(written.code, written.stderr).toBe(0);
    expect(JSON.parse(written.stdout)).toEqual({ file });
    expect(readFileSync(file, 'utf8')).toBe(printed.stdout);
  }, 120_000);

  it('keeps the root key sealed in the store, and refuses unknown subcommands', async () => {
    const pem = await t.app.services.certificates.rootPem();
    const stored = await t.store.certificateAuthority.get();
    expect(stored!.certificate).toBe(pem);
    expect(stored!.sealedKey).not.toContain('PRIVATE KEY');
    const wrong = await cli(['ca', 'import'], env());
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('ca export [file]');
  }, 60_000);
});
