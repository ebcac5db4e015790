/** Puts the management API on its port (`PORT`). */
import type { FastifyInstance } from 'fastify';
import { listenFastify } from '../common/listen-fastify.js';
import type { RunningPlane } from '../plane.js';

export const listenApi = (app: FastifyInstance, host: string, port: number): Promise<RunningPlane> => listenFastify(app, 'api', 'PORT', host, port);
