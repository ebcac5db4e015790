/**
 * The OpenAPI document is generated from the route schemas, so it can only drift by omission: a
 * route without an operation id, a summary, a known tag or a success schema. This checks every
 * registered route against the document, and the document against a real OpenAPI 3.1 validator.
 */
import { validate } from '@readme/openapi-parser';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { API_TAGS } from '../../src/planes/api/plugins/docs.js';
import { buildVideoApp } from '../../src/planes/video/app.js';
import { VIDEO_API_TAGS } from '../../src/planes/video/video-api.js';
import { createTestApp, type TestContext } from '../helpers/app.js';

interface Route {
  method: string;
  path: string;
}

interface Operation {
  operationId?: string;
  summary?: string;
  tags?: string[];
  parameters?: { name: string; in: string; required?: boolean; schema?: { default?: unknown } }[];
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }>;
}

interface Document {
  paths: Record<string, Record<string, Operation>>;
  tags?: { name: string; description?: string }[];
  components: { schemas: Record<string, unknown> };
}

/** Served for people and tools, not part of the API (and the web console's page, at `/` exactly). */
const NOT_API = ['/openapi.json', '/docs', '/console/'];
/** The video plane's pages for browsers (the embed page, its direct address, the player's files) and its tus endpoint (a protocol of its own). */
const VIDEO_PAGES = ['/openapi.json', '/embed/', '/play/', '/_player/', '/tusupload'];
/** The container API's second mount (for the platform's command-line client) repeats /mc at the root. */
const MIRRORS = ['/apps', '/registries', '/limits', '/nodes', '/regions', '/log'];
const isMirror = (path: string) => MIRRORS.some((m) => path === m || path.startsWith(`${m}/`));
const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'options', 'trace']);
const PLACEHOLDER = 'Default Response';

/** Reads `printRoutes({ commonPrefix: false })`: each line adds its segment to its parent's path. */
function registeredRoutes(tree: string): Route[] {
  const routes: Route[] = [];
  const parents: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^((?:[│ ] {3})*)[├└]── (.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    parents.length = depth;
    const path = (parents[depth - 1] ?? '') + match[2]!;
    parents.push(path);
    for (const method of match[3]?.split(', ') ?? []) if (method !== 'HEAD') routes.push({ method, path });
  }
  return routes;
}

/** Route and document paths compared as the router does: case-insensitively, any parameter name. */
const routeKey = (method: string, path: string) =>
  `${method.toUpperCase()} ${path
    .toLowerCase()
    .replace(/:[^/]+/g, '{}')
    .replace(/\{[^}]+\}/g, '{}')}`;

function operations(document: Document): [string, Operation][] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.has(method))
      .map(([method, op]): [string, Operation] => [routeKey(method, path), op]),
  );
}

function documentationProblems(document: Document, routes: Route[], notApi = NOT_API): string[] {
  const problems: string[] = [];
  const documented = new Map(operations(document));
  const tags = new Set((document.tags ?? []).filter((tag) => tag.description).map((tag) => tag.name));

  for (const { method, path } of routes) {
    if (path === '/' || notApi.some((prefix) => path.toLowerCase().startsWith(prefix))) continue;
    const documentedAs = isMirror(path) ? `/mc${path}` : path;
    if (!documented.has(routeKey(method, documentedAs))) problems.push(`${method} ${path}: not in the document`);
  }
  for (const path of Object.keys(document.paths)) {
    if (isMirror(path)) problems.push(`${path}: the mirrored mount is documented`);
  }
  for (const [key, op] of documented) {
    if (!op.operationId) problems.push(`${key}: no operationId`);
    if (!op.summary) problems.push(`${key}: no summary`);
    if (!op.tags?.length) problems.push(`${key}: no tags`);
    for (const tag of op.tags ?? []) if (!tags.has(tag)) problems.push(`${key}: tag "${tag}" is not declared with a description`);
    for (const p of op.parameters ?? []) {
      if (p.required && p.schema?.default !== undefined) problems.push(`${key}: parameter ${p.name} has a default but is marked required`);
    }
    const successes = Object.entries(op.responses ?? {}).filter(([status]) => status.startsWith('2'));
    if (successes.length === 0) problems.push(`${key}: no success response`);
    for (const [status, response] of successes) {
      const schema = Object.values(response.content ?? {})[0]?.schema;
      // No content is fine when it was declared (an empty body is described); not when it was forgotten.
      if (schema === undefined && (!response.description || response.description === PLACEHOLDER)) {
        problems.push(`${key}: ${status} has no schema`);
      }
    }
  }
  return problems;
}

let t: TestContext;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

async function documentAndRoutes(): Promise<{ document: Document; routes: Route[] }> {
  const res = await t.get<Document>('/openapi.json', null);
  expect(res.status).toBe(200);
  return { document: res.body, routes: registeredRoutes(t.app.printRoutes({ commonPrefix: false })) };
}

describe('GET /openapi.json', () => {
  it('is a valid OpenAPI 3.1 document, with no warnings', async () => {
    const { document } = await documentAndRoutes();
    const result = await validate(structuredClone(document) as never);
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(result.specification).toBe('OpenAPI');
  });

  it('documents every registered route fully', async () => {
    const { document, routes } = await documentAndRoutes();
    // The route reader must see the API, or the check below proves nothing.
    expect(routes).toEqual(
      expect.arrayContaining([
        { method: 'GET', path: '/apikey' },
        { method: 'GET', path: '/pullzone/:id|:pullZoneId' },
        { method: 'PUT', path: '/mc/apps/:appId/endpoints/:endpointId' },
      ]),
    );
    expect(routes.length).toBeGreaterThan(80);
    expect(documentationProblems(document, routes)).toEqual([]);
  });

  it('reports a route added without documentation, hidden or bare', async () => {
    t.app.get('/pullzone/:id/hidden-extra', { schema: { hide: true } }, async () => ({}));
    t.app.post('/videolibrary/:id/bare-extra', async () => ({}));
    const { document, routes } = await documentAndRoutes();
    expect(documentationProblems(document, routes)).toEqual([
      'GET /pullzone/:id|:pullZoneId/hidden-extra: not in the document',
      'POST /videolibrary/{}/bare-extra: no operationId',
      'POST /videolibrary/{}/bare-extra: no summary',
      'POST /videolibrary/{}/bare-extra: no tags',
      'POST /videolibrary/{}/bare-extra: 200 has no schema',
    ]);
  });

  it('declares the credentials each operation needs, and a described tag for each resource', async () => {
    const { document } = await documentAndRoutes();
    expect(document).toMatchObject({
      components: {
        securitySchemes: {
          AccessKey: { type: 'apiKey', in: 'header', name: 'AccessKey' },
          OperatorToken: { type: 'http', scheme: 'bearer' },
        },
      },
      security: [{ AccessKey: [] }],
      tags: API_TAGS,
    });
    const used = new Set(operations(document).flatMap(([, op]) => op.tags ?? []));
    expect([...used].sort()).toEqual(API_TAGS.map((tag) => tag.name).sort());
    const security = (path: string, method: string) => (document.paths[path]![method] as { security?: unknown }).security;
    expect(security('/pullzone/{id}', 'get')).toBeUndefined();
    expect(security('/_edgeplane/accounts', 'post')).toEqual([{ OperatorToken: [] }]);
    expect(security('/_edgeplane/health', 'get')).toEqual([]);
  });

  it('holds each resource model once, as a named component', async () => {
    const { document } = await documentAndRoutes();
    const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
    const success = (path: string, method: string, status: string) => document.paths[path]![method]!.responses![status]!.content!['application/json']!.schema;
    expect(success('/pullzone/{id}', 'get', '200')).toEqual(ref('PullZone'));
    expect(success('/storagezone/{id}', 'get', '200')).toEqual(ref('StorageZone'));
    expect(success('/videolibrary/{id}', 'get', '200')).toEqual(ref('VideoLibrary'));
    expect(success('/dnszone/{zoneId}/records', 'put', '201')).toEqual(ref('DnsRecord'));
    expect(success('/mc/apps/{appId}/containers', 'post', '201')).toEqual(ref('ContainerTemplate'));
    expect(success('/apikey', 'get', '200')).toEqual(ref('ApiKeyPage'));
    const schemas = document.components.schemas;
    expect(schemas['StorageZone']).toMatchObject({ properties: { PullZones: { items: ref('PullZone') } } });
    expect(schemas['PullZone']).toMatchObject({ type: 'object', properties: { Hostnames: { items: ref('Hostname') } } });
    // Every component is used, and every reference resolves.
    const text = JSON.stringify({ ...document, components: { ...document.components, schemas: Object.values(schemas) } });
    const referenced = new Set([...text.matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!));
    expect([...referenced].sort()).toEqual(Object.keys(schemas).sort());
  });

  it('marks query parameters with a default as optional', async () => {
    const { document } = await documentAndRoutes();
    expect(document.paths['/apikey']!['get']!.parameters).toEqual([
      expect.objectContaining({ name: 'page', in: 'query', required: false, schema: expect.objectContaining({ default: 1, minimum: 1 }) }),
      expect.objectContaining({ name: 'perPage', in: 'query', required: false, schema: expect.objectContaining({ default: 1000, minimum: 5, maximum: 1000 }) }),
    ]);
  });
});

describe('GET /docs', () => {
  it('serves the page and its assets without an API key, all from this server', async () => {
    const page = await t.get<string>('/docs', null);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('<title>edgeplane API</title>');
    // The page is an app of its own, built on this first request; the API's hooks still mark its answers.
    expect(page.headers['x-request-id']).toMatch(/\S/);
    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThan(3);
    for (const asset of assets) {
      expect(asset).toMatch(/^\/docs\/static\//);
      const res = await t.get(asset, null);
      expect(res.status, asset).toBe(200);
    }
    const initializer = await t.get<string>('/docs/static/swagger-initializer.js', null);
    // The page would otherwise send the document to an online validator.
    expect(initializer.body).toMatch(/validatorUrl: null/);
  });

  it('renders the same document as /openapi.json', async () => {
    const viaDocs = await t.get('/docs/json', null);
    expect(viaDocs.status).toBe(200);
    expect(viaDocs.body).toEqual((await t.get('/openapi.json', null)).body);
  });
});

describe("the video plane's GET /openapi.json", () => {
  it('is a valid OpenAPI 3.1 document that documents every route of the video API fully', async () => {
    const plane = await buildVideoApp({ services: t.app.services, config: t.config });
    try {
      const document = (await plane.inject('/openapi.json')).json() as Document;
      const result = await validate(structuredClone(document) as never);
      expect(result.valid ? [] : result.errors).toEqual([]);
      expect(result.warnings).toEqual([]);
      const routes = registeredRoutes(plane.printRoutes({ commonPrefix: false }));
      expect(routes).toEqual(expect.arrayContaining([{ method: 'PUT', path: '/library/:libraryId/videos/:videoId' }]));
      expect(documentationProblems(document, routes, VIDEO_PAGES)).toEqual([]);
      const used = new Set(operations(document).flatMap(([, op]) => op.tags ?? []));
      expect([...used].sort()).toEqual(VIDEO_API_TAGS.map((tag) => tag.name).sort());
    } finally {
      await plane.close();
    }
  });
});
