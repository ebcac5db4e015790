/**
 * The API's documentation: an interactive page at /docs (its assets ship inside the package, so it
 * works with no network), and the finishing pass that turns the OpenAPI document generated from
 * the route schemas into one readers can navigate.
 */
import type { SwaggerTransformObject } from '@fastify/swagger';
import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { correctOperations, isObject, type Json, type JsonObject } from '../../common/openapi-corrections.js';
import * as accountSchemas from '../../../schemas/account.js';
import * as apiKeySchemas from '../../../schemas/api-key.js';
import * as billingSchemas from '../../../schemas/billing.js';
import * as containerSchemas from '../../../schemas/containers.js';
import * as referenceDataSchemas from '../../../schemas/reference-data.js';
import * as searchSchemas from '../../../schemas/search.js';
import * as videoLibraryStatisticsSchemas from '../../../schemas/video-library-statistics.js';
import * as containerPlatformSchemas from '../../../schemas/container-platform.js';
import * as containerRegistrySchemas from '../../../schemas/container-registries.js';
import * as logForwardingSchemas from '../../../schemas/log-forwarding.js';
import * as dnsSchemas from '../../../schemas/dns.js';
import * as operatorSchemas from '../../../schemas/operator.js';
import * as pagingSchemas from '../../../schemas/paging.js';
import * as pullZoneSchemas from '../../../schemas/pull-zone.js';
import * as storageZoneSchemas from '../../../schemas/storage-zone.js';
import * as videoLibrarySchemas from '../../../schemas/video-library.js';

/** Every tag an operation may carry; the OpenAPI test fails on an operation tagged otherwise. */
export const API_TAGS = [
  { name: 'API keys', description: 'The keys that authenticate requests to this API (sent in the `AccessKey` header).' },
  { name: 'Pull zones', description: 'Delivery zones: origin, host names, certificates, edge rules, caching, security and optimizer settings.' },
  { name: 'Storage zones', description: 'File storage with a main region and replicas; pull zones can serve from them.' },
  { name: 'DNS zones', description: 'DNS zones and their records, including import and export in zone-file format.' },
  { name: 'Video libraries', description: 'Video libraries with their player, encoding, DRM and access settings.' },
  { name: 'Edge scripts', description: 'Scripts that run at the edge: their code, releases, variables, secrets and statistics.' },
  {
    name: 'Container applications',
    description:
      'Container applications, their container templates, endpoints, scaling, regions, volumes, pods and statistics; the image registries they pull from, their log forwarding, and the limits, nodes and regions around them. Needs a personal API key.',
  },
  { name: 'Account', description: 'The account itself: its user record, its audit log of writes, and closing it.' },
  { name: 'Billing', description: 'Funds, charges computed from recorded usage, monthly statements and invoices (PDF), price estimates.' },
  { name: 'Reference data', description: 'Edge regions with their traffic prices, and countries.' },
  { name: 'Search', description: "Finding the account's resources by name or host name." },
  { name: 'Operator', description: "Running this server (not part of the platform's API). Authorized by the operator token, not by an API key." },
];

const OPERATOR_SCHEME = {
  type: 'http',
  scheme: 'bearer',
  description: 'The operator token (`EDGEPLANE_ADMIN_TOKEN`), sent as `Authorization: Bearer <token>`.',
};

/** Typed as plain records: as the modules' own types, walking their entries made the type checker relate every schema exported to every other (6 s of each `tsc`). */
const SCHEMA_MODULES: readonly Record<string, unknown>[] = [
  apiKeySchemas,
  pullZoneSchemas,
  storageZoneSchemas,
  dnsSchemas,
  videoLibrarySchemas,
  containerSchemas,
  pagingSchemas,
  containerPlatformSchemas,
  containerRegistrySchemas,
  logForwardingSchemas,
  operatorSchemas,
  accountSchemas,
  billingSchemas,
  referenceDataSchemas,
  searchSchemas,
  videoLibraryStatisticsSchemas,
];
const COMPONENT_PATH = '#/components/schemas/';

/** Identity of a schema for matching (key order aside); its own description may differ where it is used. */
function shapeKey(schema: JsonObject): string {
  const { description: _ignored, ...shape } = schema;
  return JSON.stringify(shape, (_key, value: Json) =>
    isObject(value) ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : value,
  );
}

/**
 * A schema as the generator writes it into the document: it spells a string-keyed map with
 * `additionalProperties` where TypeBox writes `patternProperties`.
 */
function asGenerated(node: Json): Json {
  if (Array.isArray(node)) return node.map(asGenerated);
  if (!isObject(node)) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'patternProperties' && isObject(value)) out['additionalProperties'] = asGenerated(Object.values(value)[0] ?? {});
    else out[key] = asGenerated(value);
  }
  return out;
}

/** The models declared once in the schema modules, by shape, under their export names. */
function namedModels(): Map<string, string> {
  const byShape = new Map<string, string>();
  for (const module of SCHEMA_MODULES) {
    for (const [name, value] of Object.entries(module)) {
      // A model with an $id is already a component; other exports are helpers and constants.
      if (!isObject(value) || value['type'] !== 'object' || !isObject(value['properties']) || '$id' in value) continue;
      const key = shapeKey(asGenerated(JSON.parse(JSON.stringify(value)) as Json) as JsonObject);
      if (!byShape.has(key)) byShape.set(key, name);
    }
  }
  return byShape;
}

/**
 * Replaces each occurrence of a named model with a `$ref` to a component holding it once (the
 * document shrinks to a fraction, and the page shows models by name). Builds new objects: the
 * generated document shares its schema objects with the live routes.
 */
function extractComponents(document: JsonObject): JsonObject {
  const models = namedModels();
  const found = new Map<string, JsonObject>();
  const pending: string[] = [];

  const rewrite = (node: Json, isRoot = false): Json => {
    if (Array.isArray(node)) return node.map((item) => rewrite(item));
    if (!isObject(node)) return node;
    const name = isRoot || node['type'] !== 'object' ? undefined : models.get(shapeKey(node));
    if (name !== undefined) {
      if (!found.has(name)) {
        found.set(name, node);
        pending.push(name);
      }
      const ref: JsonObject = { $ref: `${COMPONENT_PATH}${name}` };
      const description = node['description'];
      if (description !== undefined && description !== found.get(name)?.['description']) ref['description'] = description;
      return ref;
    }
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, rewrite(value)]));
  };

  const paths = rewrite(document['paths'] ?? {});
  const components = isObject(document['components']) ? document['components'] : {};
  const existing = isObject(components['schemas']) ? components['schemas'] : {};
  const schemas: JsonObject = {};
  for (const [name, schema] of Object.entries(existing)) schemas[name] = rewrite(schema, true);
  for (let name = pending.shift(); name !== undefined; name = pending.shift()) {
    schemas[name] = rewrite(found.get(name) ?? {}, true);
  }
  const sorted = Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b)));
  return { ...document, paths, components: { ...components, schemas: sorted } };
}

/** The `transformObject` step of the OpenAPI generator. */
export const finishOpenApiDocument: SwaggerTransformObject = (input) => {
  if (!('openapiObject' in input)) return input.swaggerObject;
  const document = extractComponents(input.openapiObject as unknown as JsonObject);
  correctOperations(document);
  const components = isObject(document['components']) ? document['components'] : {};
  const securitySchemes = { ...(isObject(components['securitySchemes']) ? components['securitySchemes'] : {}), OperatorToken: OPERATOR_SCHEME };
  return { ...document, tags: API_TAGS, components: { ...components, securitySchemes } } as unknown as ReturnType<SwaggerTransformObject>;
};

/**
 * The documentation page at /docs; its "try it out" calls this server with the key entered under
 * Authorize. The page is a Fastify app of its own, built on the first request under /docs from the
 * finished OpenAPI document: registering the UI and its static files at start-up cost about 120 ms
 * of every start (BENCHMARKS.md), for a page most servers never show.
 */
export function registerDocs(app: FastifyInstance): void {
  let page: Promise<FastifyInstance> | undefined;
  const open = () => {
    page ??= docsPage(app).catch((error: unknown) => {
      page = undefined;
      throw error;
    });
    return page;
  };
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const inner = await open();
    // A hijacked reply skips the onSend hooks, which would have added this.
    reply.raw.setHeader('x-request-id', request.id);
    reply.hijack();
    inner.routing(request.raw, reply.raw);
  };
  app.get('/docs', { schema: { hide: true } }, handler);
  app.get('/docs/*', { schema: { hide: true } }, handler);
  app.addHook('onClose', async () => {
    if (page) await (await page.catch(() => undefined))?.close();
  });
}

async function docsPage(app: FastifyInstance): Promise<FastifyInstance> {
  const { default: fastifySwaggerUi } = await import('@fastify/swagger-ui');
  const inner = Fastify({ logger: false });
  await inner.register(fastifySwagger, { mode: 'static', specification: { document: app.swagger() as never } });
  await inner.register(fastifySwaggerUi, {
    routePrefix: '/docs',
    theme: { title: 'edgeplane API' },
    uiConfig: {
      // The plain layout: the default one adds a bar to load other documents, with the package's logo.
      layout: 'BaseLayout',
      docExpansion: 'list',
      displayOperationId: true,
      filter: true,
      deepLinking: true,
      defaultModelsExpandDepth: 0,
    },
  });
  await inner.ready();
  return inner;
}
