/**
 * The edge's default certificate (handshakes without SNI, names no zone claims) is kept in the
 * store: a restart presents the same one instead of signing a new one before the TLS listener can
 * listen. A kept one that another root signed, or that nears its end, is signed again. On both stores.
 */
import { X509Certificate } from 'node:crypto';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../helpers/app.js';

const CDN_DOMAIN = 'cdn.example.test';
const KEPT_KEY = `0 *.${CDN_DOMAIN} ${CDN_DOMAIN}`;
const DAY_MS = 86_400_000;

let t: TestContext;
beforeEach(async () => {
  t = await createTestApp({ cdnDomain: CDN_DOMAIN });
});
afterEach(async () => {
  await t.close();
});

const presented = () => t.app.services.certificates.edge.forName(undefined);

async function expectSignedByTheRoot(certificatePem: string): Promise<void> {
  const root = new X509Certificate(await t.app.services.certificates.rootPem());
  const leaf = new X509Certificate(certificatePem);
  expect(leaf.verify(root.publicKey)).toBe(true);
  expect(leaf.subjectAltName).toContain(`DNS:*.${CDN_DOMAIN}`);
}

it('is signed once, kept sealed, and presented again after a restart', async () => {
  const first = await presented();
  await expectSignedByTheRoot(first.certificatePem);
  const kept = await t.store.certificateAuthority.keptLeaf(KEPT_KEY);
  expect(kept?.certificate).toBe(first.certificatePem);
  expect(kept?.sealedKey).not.toContain('PRIVATE KEY');

  await t.restart();
  const again = await presented();
  expect(again.certificatePem).toBe(first.certificatePem);
  expect(again.privateKeyPem).toBe(first.privateKeyPem);
});

it("is signed again when the kept one is another root's, or has less than a month left", async () => {
  const first = await presented();
  const kept = (await t.store.certificateAuthority.keptLeaf(KEPT_KEY))!;

  await t.store.certificateAuthority.keepLeaf(KEPT_KEY, { ...kept, installationId: 'another-root' });
  await t.restart();
  const second = await presented();
  expect(second.certificatePem).not.toBe(first.certificatePem);
  await expectSignedByTheRoot(second.certificatePem);
  const rekept = (await t.store.certificateAuthority.keptLeaf(KEPT_KEY))!;
  expect(rekept.installationId).toBe(kept.installationId);
  expect(rekept.certificate).toBe(second.certificatePem);

  await t.store.certificateAuthority.keepLeaf(KEPT_KEY, { ...rekept, notAfter: new Date(Date.now() + 20 * DAY_MS).toISOString() });
  await t.restart();
  const third = await presented();
  expect(third.certificatePem).not.toBe(second.certificatePem);
  await expectSignedByTheRoot(third.certificatePem);
  expect(new Date((await t.store.certificateAuthority.keptLeaf(KEPT_KEY))!.notAfter).getTime()).toBeGreaterThan(Date.now() + 80 * DAY_MS);
});
