/** Puts the management API on its port (`PORT`). */
import type { FastifyInstance } from 'fastify';
import { listenError, type RunningPlane } from '../plane.js';

export async function listenApi(app: FastifyInstance, host: string, port: number): Promise<RunningPlane> {
  let url: string;
  try {
    url = await app.listen({ host, port });
  } catch (error) {
    throw listenError(error, 'PORT', host, port);
  }
  return {
    name: 'api',
    url,
    close: async () => {
      // Fastify stops listening, answers 503 to new requests on open connections and waits for those
      // in flight; a keep-alive connection whose request just finished would hold the close until its
      // idle timeout, so idle ones are ended as they appear.
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
