/** Puts the video plane on its port (`EDGEPLANE_VIDEO_PORT`). */
import type { FastifyInstance } from 'fastify';
import { listenError, type RunningPlane } from '../plane.js';

export async function listenVideo(app: FastifyInstance, host: string, port: number): Promise<RunningPlane> {
  let url: string;
  try {
    url = await app.listen({ host, port });
  } catch (error) {
    throw listenError(error, 'EDGEPLANE_VIDEO_PORT', host, port);
  }
  return {
    name: 'video',
    url,
    close: async () => {
      // Idle keep-alive connections would hold the close until their timeout: ended as they appear.
      const reaper = setInterval(() => app.server.closeIdleConnections(), 50);
      try {
        await app.close();
      } finally {
        clearInterval(reaper);
      }
    },
    forceClose: () => app.server.closeAllConnections(),
  };
}
