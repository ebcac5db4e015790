/**
 * The external certificate flows, DNS and HTTP, are the same pair of operations on a hostname:
 * `requestExternal<Kind>Certificate`, then `completeExternal<Kind>Certificate` once the user
 * published the challenge. Each test opens its own app on the certificate tests' CDN domain; it is
 * closed after the test.
 *
 *   const flow = useCertificateFlow('Dns');
 *   const t = await flow.open();
 *   await zoneWithHostname(t, 'cdn.example.com');
 *   await flow.request('cdn.example.com');
 */
import { afterEach } from 'vitest';
import type { Config } from '../../src/config.js';
import { CDN_DOMAIN, readOnlyKey } from '../http/certificates/support.js';
import { createTestApp, expectErrorBody, type TestContext, type TestResponse } from './app.js';

type Send = (Hostname: unknown, key?: string | null) => Promise<TestResponse>;

export interface CertificateFlow {
  /** The app `open` made for the running test. */
  readonly t: TestContext;
  /** A fresh app (with these settings besides the CDN domain) for the running test. */
  open(overrides?: Partial<Config>): Promise<TestContext>;
  paths: { request: string; complete: string };
  /** The operations, with the account's key unless another (or none: null) is given. */
  request: Send;
  complete: Send;
}

export function useCertificateFlow(kind: 'Dns' | 'Http'): CertificateFlow {
  const paths = { request: `/pullzone/requestExternal${kind}Certificate`, complete: `/pullzone/completeExternal${kind}Certificate` };
  let current: TestContext | undefined;
  const flow: CertificateFlow = {
    get t() {
      if (!current) throw new Error('open() the certificate flow first');
      return current;
    },
    async open(overrides = {}) {
      current = await createTestApp({ cdnDomain: CDN_DOMAIN, ...overrides });
      return current;
    },
    paths,
    request: (Hostname, key) => flow.t.post(paths.request, { Hostname }, key),
    complete: (Hostname, key) => flow.t.post(paths.complete, { Hostname }, key),
  };
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return flow;
}

/**
 * Both operations on `hostname` (a hostname of the account's zone) answer 404 to other accounts
 * and for unknown hostnames, 403 to a read-only key and 401 without a key.
 */
export async function expectOwnerOnly(flow: CertificateFlow, hostname: string): Promise<void> {
  const other = await flow.t.newAccount();
  for (const send of [flow.request, flow.complete]) {
    expectErrorBody(await send('unknown.example.com'), 404);
    expectErrorBody(await send(hostname, other.key), 404);
    expectErrorBody(await send(hostname, await readOnlyKey(flow.t)), 403);
    expectErrorBody(await send(hostname, null), 401);
  }
}
