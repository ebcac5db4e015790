/**
 * The edge plane of a test app on a free loopback port, a real `node:http` origin behind it, and a
 * small client that sends any Host header to the edge (undici: fetch would not let a test choose
 * the Host).
 *
 *   const origin = await startOrigin((req, res) => res.end('hello'));
 *   const edge = await startEdgePlane(t);
 *   const zone = await createPullZone(t, 'my-zone', origin.url);
 *   const res = await edge.get(`${zone.Name}.edgeplane.test`, '/a.txt');
 *   res.status, res.headers['cdn-cache'], res.text
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request as undiciRequest } from 'undici';
import type { DdosSettings } from '../../src/domain/edge/ddos/thresholds.js';
import type { HeldLimits } from '../../src/domain/edge/preloader/held-answers.js';
import type { HttpChallenges } from '../../src/domain/edge/types.js';
import type { Services } from '../../src/domain/services.js';
import { createEdgeCore, type EdgeCore } from '../../src/planes/edge/core.js';
import { listenEdge, listenEdgeTls } from '../../src/planes/edge/listen.js';
import type { RunningPlane } from '../../src/planes/plane.js';
import type { TestContext } from './app.js';

export interface EdgeAnswer {
  status: number;
  headers: Record<string, string>;
  text: string;
  body: Buffer;
}

export interface EdgePlane {
  url: string;
  port: number;
  /** The HTTPS listener (HTTP/2 and HTTP/1.1) on the same core, with `tls: true`; its certificate is the local authority's. */
  tlsUrl?: string | undefined;
  tlsPort?: number | undefined;
  /** The shared cache, directory and pipeline (to look at the cache's size, or fills in flight). */
  core: EdgeCore;
  /** Errors the plane logged; close() fails when any were logged. */
  errors: unknown[];
  /** Warnings the plane logged (a client above a zone's DDoS threshold). */
  warnings: { fields: Record<string, unknown>; message: string }[];
  /** Moves the clock cache freshness is measured on (answers age without waiting). */
  advance(seconds: number): void;
  /** That clock's time (ms). */
  now(): number;
  /** Any request to the edge with this Host header. */
  request(method: string, host: string, path: string, headers?: Record<string, string>, body?: string | Buffer): Promise<EdgeAnswer>;
  get(host: string, path: string, headers?: Record<string, string>): Promise<EdgeAnswer>;
  close(): Promise<void>;
}

export interface EdgePlaneOptions {
  /** Default: a free one. */
  port?: number;
  cacheBytes?: number;
  challenges?: HttpChallenges;
  httpsPort?: number;
  /** Serve from these services (another app over the same store: a second instance); default the test app's. */
  services?: Services;
  /** The DDoS protection's figures (small ones for tests). */
  ddos?: Partial<DdosSettings>;
  /** EDGEPLANE_STATUS_WIDGET_SCRIPT. */
  statusWidgetScript?: string;
  /** The bounds of the answers the preloading screen holds (a short hold). */
  preloading?: Partial<HeldLimits>;
  /** Also start the HTTPS listener (tlsUrl, tlsPort). */
  tls?: boolean;
}

export async function startEdgePlane(t: TestContext, options: EdgePlaneOptions = {}): Promise<EdgePlane> {
  const errors: unknown[] = [];
  const logError = (error: unknown) => errors.push(error);
  const warnings: EdgePlane['warnings'] = [];
  let offset = 0;
  const coreOptions = {
    now: () => Date.now() + offset,
    cdnDomain: t.config.cdnDomain,
    cacheBytes: options.cacheBytes ?? t.config.edgeCacheBytes,
    httpsPort: options.httpsPort,
    challenges: options.challenges,
    logError,
    logWarn: (fields: Record<string, unknown>, message: string) => warnings.push({ fields, message }),
    ddos: options.ddos,
    statusWidgetScript: options.statusWidgetScript,
    preloading: options.preloading,
  };
  const core = createEdgeCore(options.services ?? t.app.services, coreOptions);
  const secure: RunningPlane | undefined = options.tls ? await listenEdgeTls(core, t.app.services.certificates.edge, '127.0.0.1', 0) : undefined;
  const plane = await listenEdge(core, '127.0.0.1', options.port ?? 0);
  const port = Number(new URL(plane.url).port);
  const request: EdgePlane['request'] = async (method, host, path, headers = {}, body) => {
    const res = await undiciRequest(`${plane.url}${path}`, { method: method as 'GET', headers: { host, ...headers }, body, headersTimeout: 15_000 });
    const bytes = Buffer.from(await res.body.arrayBuffer());
    const flat: Record<string, string> = {};
    for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
    return { status: res.statusCode, headers: flat, text: bytes.toString('utf8'), body: bytes };
  };
  return {
    url: plane.url,
    port,
    tlsUrl: secure?.url,
    tlsPort: secure ? Number(new URL(secure.url).port) : undefined,
    core,
    errors,
    warnings,
    advance(seconds) {
      offset += seconds * 1000;
    },
    now: coreOptions.now,
    request,
    get: (host, path, headers) => request('GET', host, path, headers),
    async close() {
      await Promise.all([plane.close(), secure?.close()]);
      if (errors.length > 0) throw new Error(`the edge plane logged errors: ${errors.map(String).join('; ')}`);
    },
  };
}

export interface TestOrigin {
  url: string;
  port: number;
  /** Every request the origin received, in order. */
  requests: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[];
  /** Replaces the origin's handler. */
  handle(handler: OriginHandler): void;
  close(): Promise<void>;
}

export type OriginHandler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

/** A real HTTP origin on a free loopback port; by default answers `origin <path>` with `Cache-Control: max-age=60`. */
export async function startOrigin(handler?: OriginHandler): Promise<TestOrigin> {
  let current: OriginHandler =
    handler ??
    ((req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'max-age=60' });
      res.end(`origin ${req.url}`);
    });
  const requests: TestOrigin['requests'] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      current(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    handle(next) {
      current = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export interface TestPullZone {
  Id: number;
  Name: string;
  /** `<name>.<cdn domain>`: the Host to send. */
  host: string;
  [field: string]: unknown;
}

/** Creates a pull zone pulling from `originUrl`, then applies `settings` (POST /pullzone/{id}). */
export async function createPullZone(t: TestContext, name: string, originUrl: string, settings: Record<string, unknown> = {}): Promise<TestPullZone> {
  const created = await t.post('/pullzone', { Name: name, OriginUrl: originUrl });
  if (created.status !== 201) throw new Error(`pull zone: ${created.status} ${JSON.stringify(created.body)}`);
  let zone = created.body as TestPullZone;
  if (Object.keys(settings).length > 0) zone = await updatePullZone(t, zone.Id, settings);
  return { ...zone, host: `${name.toLowerCase()}.${t.config.cdnDomain}` };
}

export async function updatePullZone(t: TestContext, id: number, settings: Record<string, unknown>): Promise<TestPullZone> {
  const updated = await t.post(`/pullzone/${id}`, settings);
  if (updated.status !== 200) throw new Error(`pull zone update: ${updated.status} ${JSON.stringify(updated.body)}`);
  const zone = updated.body as TestPullZone;
  return { ...zone, host: `${String(zone.Name).toLowerCase()}.${t.config.cdnDomain}` };
}
