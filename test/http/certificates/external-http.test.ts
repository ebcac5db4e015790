/**
 * The external HTTP certificate flow: `requestExternalHttpCertificate` publishes a challenge file
 * that the edge answers at `http://<hostname>/.well-known/acme-challenge/<token>`;
 * `completeExternalHttpCertificate` fetches that URL through the edge (with the hostname as Host)
 * and installs a certificate from the local authority only when the file is the challenge's.
 *
 * The edge is the real edge plane on a loopback port, in front of a real origin.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { buildApiOver, errorFields, expectErrorBody } from '../../helpers/app.js';
import { expectOwnerOnly, useCertificateFlow } from '../../helpers/certificate-flow.js';
import { type EdgePlane, startEdgePlane, startOrigin, type TestOrigin } from '../../helpers/edge-plane.js';
import { CDN_DOMAIN, expectIssued, readHostname, zoneWithHostname } from './support.js';

// Registered first, so the app closes last (after-hooks run in reverse): after the edge and origin.
const flow = useCertificateFlow('Http');
let edge: EdgePlane | undefined;
let origin: TestOrigin | undefined;
afterEach(async () => {
  await edge?.close();
  await origin?.close();
  edge = undefined;
  origin = undefined;
});

/** The edge plane of this instance, answering the published challenges, in front of an origin that answers `body`. */
async function startEdge(body: () => string = () => 'from the origin') {
  origin = await startOrigin((_req, res) => res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'no-store' }).end(body()));
  const board = flow.t.app.services.certificates.httpChallenges;
  await board.start();
  edge = await startEdgePlane(flow.t, { challenges: board });
  flow.t.app.services.certificates.edgeUrl = edge.url;
  return edge;
}

/** A pull zone with the custom hostname, fetching from the test's origin. */
async function zoneOnOrigin(hostname = 'cdn.example.com', settings: Record<string, unknown> = {}) {
  const zoneId = await zoneWithHostname(flow.t, hostname);
  expect((await flow.t.post(`/pullzone/${zoneId}`, { OriginUrl: origin!.url, ...settings })).status).toBe(200);
  return zoneId;
}

const fetchThrough = async (_edge: EdgePlane, host: string, path: string) => {
  const res = await _edge.get(host, path);
  return { status: res.status, body: res.text };
};

const { request, complete } = flow;

describe('the HTTP challenge', () => {
  it('is answered by the edge while open, checked through it, and then closed', async () => {
    const t = await flow.open();
    const edgeUrl = await startEdge();
    const zoneId = await zoneOnOrigin();
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
    expect(origin!.requests).toEqual([]);
    // Another host is not answered (unknown to the edge), another token goes to the origin.
    expect((await fetchThrough(edgeUrl, 'other.example.com', path)).status).toBe(404);
    expect(await fetchThrough(edgeUrl, 'cdn.example.com', '/.well-known/acme-challenge/xyz')).toEqual({ status: 200, body: 'from the origin' });

    const done = await complete('cdn.example.com');
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toBe('');
    const hostname = await readHostname(t, zoneId, 'cdn.example.com');
    expect(hostname.CertificateProvisionType).toBe(1);
    await expectIssued(t, hostname, ['cdn.example.com']);
    // Closed: the path is the origin's again.
    expect(await fetchThrough(edgeUrl, 'cdn.example.com', path)).toEqual({ status: 200, body: 'from the origin' });
    expectErrorBody(await complete('cdn.example.com'), 400);
  });

  it('is published in the store: a second process on the same data answers it', async () => {
    const t = await flow.open();
    await zoneWithHostname(t, 'cdn.example.com');
    const res = await request('cdn.example.com');
    const second = await t.openStore();
    try {
      const app = await buildApiOver({ config: t.config, store: second, masterKey: t.masterKey, clock: t.clock.read });
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
    const t = await flow.open();
    // Built-in issuance off: the origin must answer the file; this one answers another page, then the file.
    let file = 'an unrelated page';
    await startEdge(() => file);
    const zoneId = await zoneOnOrigin('cdn.example.com', { DisableBuiltInCertificateIssuance: true });
    const res = await request('cdn.example.com');
    const failed = await complete('cdn.example.com');
    expectErrorBody(failed, 400);
    expect(errorFields(failed)).toEqual(['Hostname']);
    expect(failed.body.detail).toContain('a different body');
    expect((await readHostname(t, zoneId, 'cdn.example.com')).HasCertificate).toBe(false);
    file = res.body.FileContent as string;
    expect((await complete('cdn.example.com')).status).toBe(200);
    expect((await readHostname(t, zoneId, 'cdn.example.com')).HasCertificate).toBe(true);
    expect(origin!.requests.map((r) => r.url)).toEqual([`/.well-known/acme-challenge/${res.body.Token}`, `/.well-known/acme-challenge/${res.body.Token}`]);
  });

  it('fails when no edge runs on this instance, and when the challenge expired', async () => {
    const t = await flow.open();
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
    const t = await flow.open();
    await zoneWithHostname(t, 'cdn.example.com');
    for (const path of [flow.paths.request, flow.paths.complete]) {
      expect(errorFields(await t.post(path, {}))).toEqual(['Hostname']);
      expect(errorFields(await t.post(path, { Hostname: '' }))).toEqual(['Hostname']);
      expect(errorFields(await t.post(path, { Hostname: 'not a host' }))).toEqual(['Hostname']);
    }
    expect(errorFields(await request(`my-zone.${CDN_DOMAIN}`))).toEqual(['Hostname']);
  });

  it('answer 404 for unknown hostnames and other accounts, 403 for read-only keys', async () => {
    const t = await flow.open();
    await zoneWithHostname(t, 'cdn.example.com');
    await expectOwnerOnly(flow, 'cdn.example.com');
    expect(await t.store.docs.list('certificateChallenge', t.accountId, { offset: 0, limit: 10 })).toMatchObject({ items: [] });
  });

  it('go with the pull zone: deleting it deletes its challenges', async () => {
    const t = await flow.open();
    const edgeUrl = await startEdge();
    const zoneId = await zoneOnOrigin();
    const res = await request('cdn.example.com');
    expect((await t.del(`/pullzone/${zoneId}`)).status).toBe(204);
    expect((await t.store.docs.list('certificateChallenge', t.accountId, { offset: 0, limit: 10 })).items).toEqual([]);
    expect((await fetchThrough(edgeUrl, 'cdn.example.com', `/.well-known/acme-challenge/${res.body.Token}`)).status).toBe(404);
  });
});
