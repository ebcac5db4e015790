/** The Fastify instance type routes are written against: TypeBox-typed, with the services attached. */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { Config } from '../../config.js';
import type { Services } from '../../domain/services.js';
import type { ResetGate } from './plugins/reset-gate.js';
import type { PlaneStates } from '../plane.js';
import type { AnswerCache } from './answer-cache.js';

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
    config: Config;
    resetGate: ResetGate;
    answers: AnswerCache;
    /** Which planes of this process serve, for the health answer. */
    planes: PlaneStates;
  }
}

export type Api = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;

export { errorResponses } from '../common/error-responses.js';
