/**
 * The external HTTP certificate flow: `requestExternalHttpCertificate` publishes a challenge file
 * that the edge answers at `http://<hostname>/.well-known/acme-challenge/<token>`;
 * `completeExternalHttpCertificate` fetches that URL through the edge (with the hostname as Host)
 * and installs a certificate from the local authority only when the file is the challenge's.
 *
 * The edge here answers HTTP with the board of published challenges (the HttpChallenges contract
 * the edge plane serves from) and 404 otherwise, on a real loopback port.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, errorFields, expectErrorBody, type TestContext } from '../../helpers/app.js';
import { CDN_DOMAIN, expectIssued, readHostname, readOnlyKey, zoneWithHostname } from './support.js';

let t: TestContext;
let edge: Server | undefined;
afterEach(async () => {
  if (edge) await new Promise((resolve) => edge!.close(resolve));
  edge = undefined;
  await t?.close();
});

/**
 * Serves the published challenges, else what `origin` answers. `challenges: false` is a zone with
 * built-in issuance off, whose challenge paths go to the origin.
 */
async function startEdge(origin: (path: string) => { status: number; body: string } = () => ({ status: 404, body: 'not found' }), challenges = true) {
  const board = t.app.services.certificates.httpChallenges;
  await board.start();
  edge = createServer((req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    const path = (req.url ?? '/').split('?')[0]!;
    const body = challenges ? board.answer(host, path) : undefined;
    const answer = body !== undefined ? { status: 200, body } : origin(path);
    res.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.body);
  });
  await new Promise<void>((resolve) => edge!.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(edge.address() as AddressInfo).port}`;
  t.app.services.certificates.edgeUrl = url;
  return url;
}

function fetchThrough(edgeUrl: string, host: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(new URL(path, edgeUrl), { headers: { host } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

const request = (Hostname: unknown, key?: string | null) => t.post('/pullzone/requestExternalHttpCertificate', { Hostname }, key);
const complete = (Hostname: unknown, key?: string | null) => t.post('/pullzone/completeExternalHttpCertificate', { Hostname }, key);

describe('the HTTP challenge', () => {
  it('is answered by the edge while open, checked through it, and then closed', async () => {
    t = await createTestApp({ cdnDomain: CDN_DOMAIN });
    const zoneId = await zoneWithHostname(t, 'cdn.example.com');
    const edgeUrl = await startEdge();
    const res = await request('CDN.example.com');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const token = res.body.Token as string;
    expect(res.body).toEqual({
      Hostname: 'cdn.example.com',
      Token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      Url: `http://cdn.example.com/.well-known/acme-challenge/${token}`,
      FileContent: expect.stringMatching(new RegExp(`^${token}\\.[A-Za-z0-9_-]{43}$`)),
      ExpiresAt: '2026-01-02T00:00:00.000Z',
    });
    const path = `/.well-known/acme-challenge/${token}`;
    expect(await fetchThrough(edgeUrl, 'cdn.example.com', path)).toEqual({ status: 200, body: res.body.FileContent });
    // Another host, or another token, is not answered.
    expect((await fetchThrough(edgeUrl, 'other.example.com', path)).status).toBe(404);
    expect((await fetchThrough(edgeUrl, 'cdn.example.com', '/.well-known/acme-challenge/xyz')).status).toBe(404);

    const done = await complete('cdn.example.com');
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toBe('');
    const hostname = await readHostname(t, zoneId, 'cdn.example.com');
    expect(hostname.CertificateProvisionType).toBe(1);
    await expectIssued(t, hostname, ['cdn.example.com']);
    expect((await fetchThrough(edgeUrl, 'cdn.example.com', path)).status).toBe(404);
    expectErrorBody(await complete('cdn.example.com'), 400);
  });

  it('is published in the store: a second process on the same data answers it', async () => {
    t = await createTestApp({ cdnDomain: CDN_DOMAIN });
    await zoneWithHostname(t, 'cdn.example.com');
    const res = await request('cdn.example.com');
    const second = await t.openStore();
    try {
      const { buildApp } = await import('../../../src/planes/api/app.js');
      const app = await buildApp({ config: t.config, store: second, masterKey: t.masterKey, clock: t.clock.read, runJobs: false });
      try {
        const board = app.services.certificates.httpChallenges;
        await board.start();
        expect(board.answer('cdn.example.com', `/.well-known/acme-challenge/${res.body.Token}`)).toBe(res.body.FileContent);
      } finally {
        await app.close();
      }
    } finally {
      await second.close();
    }
  });

  it('fails when the URL answers something else, saying what it got', async () => {
    t = await createTestApp({ cdnDomain: CDN_DOMAIN });
    const zoneId = await zoneWithHostname(t, 'cdn.example.com');
    // Built-in issuance off: the origin must answer the file; this one answers another page, then the file.
    let file = 'an unrelated page';
    await startEdge(() => ({ status: 200, body: file }), false);
    const res = await request('cdn.example.com');
    const failed = await complete('cdn.example.com');
    expectErrorBody(failed, 400);
    expect(errorFields(failed)).toEqual(['Hostname']);
    expect(failed.body.detail).toContain('a different body');
    expect((await readHostname(t, zoneId, 'cdn.example.com')).HasCertificate).toBe(false);
    file = res.body.FileContent as string;
    expect((await complete('cdn.example.com')).status).toBe(200);
    expect((await readHostname(t, zoneId, 'cdn.example.com')).HasCertificate).toBe(true);
  });

  it('fails when no edge runs on this instance, and when the challenge expired', async () => {
    t = await createTestApp({ cdnDomain: CDN_DOMAIN });
    await zoneWithHostname(t, 'cdn.example.com');
    expect((await request('cdn.example.com')).status).toBe(200);
    const noEdge = await complete('cdn.example.com');
    expectErrorBody(noEdge, 400);
    expect(noEdge.body.detail).toContain('edge plane');
    await startEdge();
    t.clock.advance(24 * 3600 * 1000 + 1);
    const expired = await complete('cdn.example.com');
    expectErrorBody(expired, 400);
    expect(expired.body.detail).toContain('expired');
  });
});

describe('the rules', () => {
  it('validate the body and refuse the system hostname', async () => {
    t = await createTestApp({ cdnDomain: CDN_DOMAIN });
    await zoneWithHostname(t, 'cdn.example.com');
    for (const path of ['/pullzone/requestExternalHttpCertificate', '/pullzone/completeExternalHttpCertificate']) {
      expect(errorFields(await t.post(path, {}))).toEqual(['Hostname']);
      expect(errorFields(await t.post(path, { Hostname: '' }))).toEqual(['Hostname']);
      expect(errorFields(await t.post(path, { Hostname: 'not a host' }))).toEqual(['Hostname']);
    }
    expect(errorFields(await request(`my-zone.${CDN_DOMAIN}`))).toEqual(['Hostname']);
  });

  it('answer 404 for unknown hostnames and other accounts, 403 for read-only keys', async () => {
    t = await createTestApp({ cdnDomain: CDN_DOMAIN });
    await zoneWithHostname(t, 'cdn.example.com');
    const other = await t.newAccount();
    for (const send of [request, complete]) {
      expectErrorBody(await send('unknown.example.com'), 404);
      expectErrorBody(await send('cdn.example.com', other.key), 404);
      expectErrorBody(await send('cdn.example.com', await readOnlyKey(t)), 403);
      expectErrorBody(await send('cdn.example.com', null), 401);
    }
    expect(await t.store.docs.list('certificateChallenge', t.accountId, { offset: 0, limit: 10 })).toMatchObject({ items: [] });
  });

  it('go with the pull zone: deleting it deletes its challenges', async () => {
    t = await createTestApp({ cdnDomain: CDN_DOMAIN });
    const zoneId = await zoneWithHostname(t, 'cdn.example.com');
    const edgeUrl = await startEdge();
    const res = await request('cdn.example.com');
    expect((await t.del(`/pullzone/${zoneId}`)).status).toBe(204);
    expect((await t.store.docs.list('certificateChallenge', t.accountId, { offset: 0, limit: 10 })).items).toEqual([]);
    expect((await fetchThrough(edgeUrl, 'cdn.example.com', `/.well-known/acme-challenge/${res.body.Token}`)).status).toBe(404);
  });
});
