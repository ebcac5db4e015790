/**
 * Builds the video plane's HTTP application: the video API of video libraries (the platform's
 * video API reference: videos, collections, uploads, encoding requests, captions, thumbnails,
 * reports, oEmbed) and the embed page that plays a video, over the runtime's services. Same error body, validation messages and
 * serializers as the management API (planes/common/); authenticated with the library's keys
 * (auth.ts). It builds no service and never listens: the server and the tests decide that.
 */
import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import type { Config } from '../../config.js';
import type { Services } from '../../domain/services.js';
import { ErrorBody } from '../../schemas/error.js';
import { registerBodyParsers } from '../common/body-parsers.js';
import { answerCrossOrigin, type CrossOriginRules } from '../common/cross-origin.js';
import { correctOperations, type JsonObject } from '../common/openapi-corrections.js';
import { frameworkErrors, registerErrorHandling } from '../common/errors.js';
import { serializerCompiler } from '../common/serialization.js';
import { validatorCompiler } from '../common/validation.js';
import { registerVideoAuth } from './auth.js';
import collectionRoutes from './routes/collections.js';
import embedRoutes from './routes/embed.js';
import encodingRoutes from './routes/encoding.js';
import mediaRoutes from './routes/media.js';
import oEmbedRoute from './routes/oembed.js';
import reportRoutes from './routes/reports.js';
import unavailableRoutes from './routes/unavailable.js';
import tusUploadRoutes from './routes/tus-upload.js';
import uploadRoute from './routes/upload.js';
import videoRoutes from './routes/videos.js';
import { VIDEO_API_TAGS, type VideoApi } from './video-api.js';

/** Each concern registers its operations here, one line each; the uploads have scopes of their own (their bodies are streams). */
const ROUTES: ((app: VideoApi) => void)[] = [videoRoutes, collectionRoutes, mediaRoutes, encodingRoutes, reportRoutes, unavailableRoutes, oEmbedRoute];

export interface VideoAppDeps {
  services: Services;
  config: Config;
  /** The process's logger (one line per request through it); none: the plane logs nothing. */
  logger?: FastifyBaseLogger | undefined;
}

/** Pages elsewhere (the web console) list, create, upload and delete videos with a library's key. */
const CROSS_ORIGIN: CrossOriginRules = {
  methods: 'GET, HEAD, POST, PUT, DELETE',
  headers: 'AccessKey, Content-Type',
  exposed: 'Content-Length, Content-Type, X-Request-Id',
};

export async function buildVideoApp(deps: VideoAppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    ...(deps.logger ? { loggerInstance: deps.logger } : { logger: false }),
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: deps.config.bodyLimit,
    requestIdHeader: false,
    genReqId: () => crypto.randomUUID(),
    frameworkErrors,
    routerOptions: { ignoreTrailingSlash: true, caseSensitive: false },
  }).withTypeProvider();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerBodyParsers(app);
  registerErrorHandling(app);
  app.addSchema(ErrorBody);
  app.decorate('services', deps.services);
  if (deps.logger)
    app.addHook('onResponse', async (request, reply) => request.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed'));
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  // The video API's own document, generated from the same route schemas that validate and serialize.
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'edgeplane video API', version: '0.1.0', description: "The videos of a video library, authenticated with the library's keys." },
      components: { securitySchemes: { AccessKey: { type: 'apiKey', in: 'header', name: 'AccessKey' } } },
      security: [{ AccessKey: [] }],
      tags: VIDEO_API_TAGS,
    },
    transformObject: (input) => {
      if (!('openapiObject' in input)) return input.swaggerObject;
      correctOperations(input.openapiObject as unknown as JsonObject);
      return input.openapiObject;
    },
  });
  // Before authentication: a browser's preflight carries no key. tus answers its own (routes/tus-upload.ts).
  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.toLowerCase().startsWith('/tusupload') && answerCrossOrigin(request.raw, reply.raw, CROSS_ORIGIN)) reply.hijack();
  });
  registerVideoAuth(app, deps.services);
  app.get('/openapi.json', { schema: { hide: true }, config: { videoAccess: 'public' } }, async () => app.swagger());
  const api = app as unknown as VideoApi;
  for (const routes of ROUTES) routes(api);
  await app.register(async (scope) => uploadRoute(scope as unknown as VideoApi));
  // The embed page answers errors as HTML, in a scope of its own.
  await app.register(async (scope) => embedRoutes(scope as unknown as VideoApi));
  await app.register(async (scope) => tusUploadRoutes(scope as unknown as VideoApi));
  return app;
}
