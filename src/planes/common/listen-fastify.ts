/** Puts a Fastify-built plane (the management API, the video plane) on its port, with the graceful close every plane has. */
import type { FastifyInstance } from 'fastify';
import { listenError, type PlaneName, type RunningPlane } from '../plane.js';

export async function listenFastify(app: FastifyInstance, name: PlaneName, variable: string, host: string, port: number): Promise<RunningPlane> {
  let url: string;
  try {
    url = await app.listen({ host, port });
  } catch (error) {
    throw listenError(error, variable, host, port);
  }
  return {
    name,
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
