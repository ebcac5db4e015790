/**
 * Builds the management API's HTTP application over the runtime's services (src/runtime.ts). It
 * builds no service and runs no background work of its own; it never listens: the server and the
 * tests decide that.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import type { Runtime } from '../../runtime.js';
import { AnswerCache } from './answer-cache.js';
import { FrontDoor } from './front-door.js';
import { continueOnRead } from '../common/expect-continue.js';
import { TurnWrites } from '../common/turn-writes.js';
import { completedLineOf } from './request-log.js';
import { PlaneStates } from '../plane.js';
import type { Api } from './api.js';
import { registerAuth } from './plugins/auth.js';
import { ResetGate, registerResetGate } from './plugins/reset-gate.js';
import { registerOperatorAuth } from './plugins/operator-auth.js';
import healthRoute from './routes/operator/health.js';
import operatorRoutes from './routes/operator/index.js';
import { registerBodyParsers } from '../common/body-parsers.js';
import { bindCaseInsensitively } from './plugins/case-insensitive-body.js';
import { finishOpenApiDocument, registerDocs } from './plugins/docs.js';
import { defaultConsoleDir, registerConsole } from './plugins/console.js';
import { frameworkErrors, registerErrorHandling } from '../common/errors.js';
import { registerFaults } from './plugins/faults.js';
import { registerIdempotency } from './plugins/idempotency.js';
import { registerInputLimits } from './plugins/input-limits.js';
import { registerJournal } from './plugins/journal.js';
import { registerMetrics } from './plugins/metrics.js';
import { quickHook, quickSendHook } from './plugins/quick-hook.js';
import { registerRateLimits } from './plugins/rate-limit.js';
import { serializeArrayOrPaged, serializerCompiler } from '../common/serialization.js';
import { validatorCompiler } from '../common/validation.js';
import { registerAudit } from './plugins/audit.js';
import { registerDurableAnswers } from './plugins/durable-answers.js';
import accountRoutes from './routes/account/index.js';
import apiKeyRoutes from './routes/api-keys/index.js';
import billingRoutes from './routes/billing/index.js';
import containerAppRoutes from './routes/containers/index.js';
import containerRegistryRoutes from './routes/container-registries/index.js';
import logForwardingRoutes from './routes/log-forwarding/index.js';
import dnsRoutes from './routes/dns/index.js';
import edgeScriptRoutes from './routes/edge-scripts/index.js';
import pullZoneRoutes from './routes/pull-zones/index.js';
import referenceDataRoutes from './routes/reference-data/index.js';
import searchRoutes from './routes/search/index.js';
import purgeUrl from './routes/purge.js';
import storageZoneRoutes from './routes/storage-zones/index.js';
import videoLibraryRoutes from './routes/video-libraries/index.js';
import { ErrorBody } from '../../schemas/error.js';

/** Each resource registers its operations here, one line per resource. */
const CORE_ROUTES: ((app: Api) => void)[] = [
  apiKeyRoutes,
  dnsRoutes,
  pullZoneRoutes,
  storageZoneRoutes,
  videoLibraryRoutes,
  accountRoutes,
  billingRoutes,
  referenceDataRoutes,
  searchRoutes,
  purgeUrl,
  edgeScriptRoutes,
];

/** Container-application operations, served under /mc (and at the root: CONTAINER_AT_ROOT). */
const CONTAINER_ROUTES: ((app: Api) => void)[] = [containerAppRoutes, containerRegistryRoutes, logForwardingRoutes];
/** The container API's first path segments, which the platform's command-line client calls without /mc. */
const CONTAINER_AT_ROOT = /^\/(?:apps|registries|limits|log|nodes|regions)(?:[/?]|$)/i;

/** A container call made at the root goes to the /mc mount; `request.originalUrl` keeps what was asked. */
function containerCallsUnderMc(request: IncomingMessage): string {
  const url = request.url ?? '/';
  return CONTAINER_AT_ROOT.test(url) ? `/mc${url}` : url;
}

export interface AppDeps {
  runtime: Runtime;
  /** The process's logger (one line per request through it); none: the API logs nothing. */
  logger?: FastifyBaseLogger | undefined;
  /** Which planes of the process serve, for the health answer; default: the API alone. */
  planes?: PlaneStates | undefined;
  /** The built web console's folder; default: beside the server's bundle (plugins/console.ts). */
  consoleDir?: string | undefined;
}

/** The request's line: what was asked, how it ended, how long it took (the serializers keep headers and bodies out). */
const requestLog = quickHook((request, reply) => {
  request.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
});

/** A client's own X-Request-Id is kept so it can correlate; anything odd is replaced, as it ends up in logs. */
function requestIdOf(req: IncomingMessage): string {
  const sent = req.headers['x-request-id'];
  return typeof sent === 'string' && /^[A-Za-z0-9._-]{1,64}$/.test(sent) ? sent : crypto.randomUUID();
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, store, clock, services } = deps.runtime;
  // Set once the app is built; requests only arrive after that.
  let front: FrontDoor | undefined;
  const turnWrites = new TurnWrites();
  const app = Fastify({
    ...(deps.logger ? { loggerInstance: deps.logger } : { logger: false }),
    // One line per request, when it completes (requestLog below), instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: config.bodyLimit,
    genReqId: requestIdOf,
    // Fastify's own server, with the front door before its handler (Fastify's timeouts, set as it sets them).
    serverFactory: (handler, options) => {
      const serve = (request: IncomingMessage, response: ServerResponse) => {
        if (!front?.serve(request, response)) handler(request, response);
      };
      const server = createServer(serve);
      // `100 Continue` only once a body is read: a refusal (413, 401) comes first (common/expect-continue.ts).
      continueOnRead(server, serve);
      server.keepAliveTimeout = Number(options.keepAliveTimeout);
      server.requestTimeout = Number(options.requestTimeout);
      server.setTimeout(Number(options.connectionTimeout));
      turnWrites.hold(server);
      return server;
    },
    requestIdHeader: false,
    frameworkErrors,
    routerOptions: { ignoreTrailingSlash: true, caseSensitive: false },
    ajv: { customOptions: { coerceTypes: false } },
    rewriteUrl: containerCallsUnderMc,
  }).withTypeProvider();

  if (deps.logger) app.addHook('onResponse', requestLog);
  app.setValidatorCompiler(validatorCompiler);
  // Every array-or-page answer (the lists) is written by the serializer of its shape, not checked against both.
  app.setSerializerCompiler(serializeArrayOrPaged(serializerCompiler));
  registerBodyParsers(app);

  app.addHook(
    'onSend',
    quickSendHook((request, reply) => {
      reply.header('x-request-id', request.id);
    }),
  );

  app.decorate('services', services);
  app.decorate('answers', new AnswerCache(store.changes, config.answerCacheSize));
  registerErrorHandling(app);
  const recordRequest = registerMetrics(app, store, clock);
  registerFaults(app, app.services.faults);
  registerJournal(app, config.journalSize, clock);
  app.decorate('config', config);
  // Answering at all means the API plane serves; `serve` marks the other planes as they listen.
  const planes = deps.planes ?? new PlaneStates();
  planes.set('api', 'ok');
  app.decorate('planes', planes);
  const resetGate = new ResetGate();
  app.decorate('resetGate', resetGate);
  registerResetGate(app, resetGate);
  // Before every route scope, so these hooks wrap each scope's authentication (order matters: limits before idempotency).
  const throttle = registerRateLimits(app, { perKeyPerSecond: config.rateLimitPerSecond, authFailureLimit: config.authFailureLimit, clock });
  registerInputLimits(app);
  registerIdempotency(app, { store, secrets: deps.runtime.secrets, clock });
  app.addSchema(ErrorBody);

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'edgeplane',
        version: '0.1.0',
        description: 'Management API of the platform: API keys, container applications, video libraries, pull zones, DNS zones and storage zones.',
      },
      components: {
        securitySchemes: { AccessKey: { type: 'apiKey', in: 'header', name: 'AccessKey' } },
      },
      security: [{ AccessKey: [] }],
    },
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json['$id'] ?? `def-${i}`) },
    transformObject: finishOpenApiDocument,
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  registerDocs(app);
  const fixedPort = (port: number | 'off') => (typeof port === 'number' && port > 0 ? port : null);
  registerConsole(app, deps.consoleDir ?? defaultConsoleDir(), { storage: fixedPort(config.storagePort), video: fixedPort(config.videoPort) });

  // Core API: property names bind case-insensitively, as on the platform.
  await app.register(async (core) => {
    registerAuth(core, app.services.apiKeys, { personalKeyOnly: false });
    registerAudit(core, app.services.audit);
    registerDurableAnswers(core);
    core.addHook(
      'preValidation',
      quickHook((request) => {
        const schema = request.routeOptions.schema?.body;
        if (schema && request.body !== undefined) request.body = bindCaseInsensitively(request.body, schema);
      }),
    );
    for (const routes of CORE_ROUTES) routes(core as unknown as Api);
  });

  healthRoute(app as unknown as Api);
  await app.register(
    async (operator) => {
      registerOperatorAuth(operator, config.adminToken);
      operatorRoutes(operator as unknown as Api);
    },
    { prefix: '/_edgeplane' },
  );

  // Container API, mounted at /mc; the platform's command-line client calls it at the root
  // (`<base>/apps/...`): rewriteUrl (above) sends those calls here rather than a second mount (each
  // mount's ~60 routes were a fifth of building the app, which every test does).
  await app.register(
    async (mc) => {
      registerAuth(mc, app.services.apiKeys, { personalKeyOnly: true });
      registerAudit(mc, app.services.audit);
      registerDurableAnswers(mc);
      for (const routes of CONTAINER_ROUTES) routes(mc as unknown as Api);
    },
    { prefix: '/mc' },
  );

  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
    turnWrites.release();
  });
  front = new FrontDoor({
    answers: app.answers,
    cachedPrincipal: (presented) => services.apiKeys.cached(presented),
    open: () => !closing && !services.faults.active && app.journal.capacity === 0 && !resetGate.resetting,
    throttle,
    recordRequest,
    requestId: requestIdOf,
    logCompleted: deps.logger ? completedLineOf(app.log) : undefined,
  });
  return app;
}
