/** Puts the video plane on its port (`EDGEPLANE_VIDEO_PORT`). */
import type { FastifyInstance } from 'fastify';
import { listenFastify } from '../common/listen-fastify.js';
import type { RunningPlane } from '../plane.js';

export const listenVideo = (app: FastifyInstance, host: string, port: number): Promise<RunningPlane> =>
  listenFastify(app, 'video', 'EDGEPLANE_VIDEO_PORT', host, port);
