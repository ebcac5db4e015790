/**
 * The process's last resort, for an error nothing caught: a rejected promise nobody awaited, or a
 * throw out of an event callback (a timer, a socket's or a stream's event). Each plane answers an
 * unexpected error in a request with a 500 itself; what reaches this far is a bug, and one bug must
 * not take every plane down for every client. So it is logged (through the logger's error
 * serializer: kind, message, code, stack, never the error's other properties) and the process
 * serves on, unless the error may have left it in a state nobody knows.
 *
 * Node's documentation warns against resuming after `uncaughtException`: the throw cut some code
 * off midway, and whatever it was changing is left half-changed. Which errors leave that, then:
 *
 * - A rejection: it ended only the async functions awaiting it, each through its own `catch` and
 *   `finally` (a transaction rolled back, a pool client released), as a caught error would have;
 *   nothing that was not waiting for it was interrupted. Serving on is safe.
 * - A system error on one socket or file nobody listened for (`ECONNRESET`, `EPIPE`: it has a
 *   `syscall`), or Node refusing a value before acting on it (an `ERR_*` code: `ERR_INVALID_CHAR`
 *   from a header, `ERR_HTTP_HEADERS_SENT`, `ERR_STREAM_WRITE_AFTER_END`): the operation did not
 *   happen, and what was cut off is the caller's handling of one request or connection, whose state
 *   is its own (each plane's requests are independent). Serving on is safe; that one connection
 *   may be left to its timeouts.
 * - Anything else thrown synchronously out of a callback (a `TypeError` of our own code, a library's
 *   own error, Node's `ERR_INTERNAL_ASSERTION`): it may have been cut off halfway through shared
 *   state (a cache, an index, a pool's books). The process stops as on SIGTERM (requests in flight
 *   finish, at most 10 s) and exits with 1, for its supervisor to start a clean one.
 */

/** The little of the logger this needs (pino's, through Fastify). */
export interface StrayErrorLog {
  error(fields: Record<string, unknown>, message: string): void;
  fatal(fields: Record<string, unknown>, message: string): void;
}

export type StrayOrigin = 'unhandledRejection' | 'uncaughtException';

/** Whether the process may serve on after `error` reached the top (see above). */
export function safeToServeOn(error: unknown, origin: StrayOrigin): boolean {
  if (origin === 'unhandledRejection') return true;
  if (!(error instanceof Error)) return false;
  const { code, syscall } = error as { code?: unknown; syscall?: unknown };
  if (typeof syscall === 'string') return true;
  return typeof code === 'string' && code.startsWith('ERR_') && code !== 'ERR_INTERNAL_ASSERTION';
}

/**
 * Installs the handlers; `stop` is called once, for the first error that is not safe to serve on
 * after (it stops the planes and exits). Returns a function that removes them again.
 */
export function catchStrayErrors(log: StrayErrorLog, stop: () => void): () => void {
  let stopping = false;
  const caught = (error: unknown, origin: StrayOrigin) => {
    if (safeToServeOn(error, origin)) {
      log.error({ err: error, origin }, 'an error nothing caught; serving on');
      return;
    }
    log.fatal({ err: error, origin }, 'an error nothing caught, which may have left the process in an unknown state; stopping');
    if (stopping) return;
    stopping = true;
    stop();
  };
  const onRejection = (reason: unknown) => caught(reason, 'unhandledRejection');
  // Also the rejection of the entry module's top-level await (Node reports it here, its origin
  // `unhandledRejection`): a start that failed, and serve() removes these before failing anyway.
  const onException = (error: unknown) => caught(error, 'uncaughtException');
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  return () => {
    process.off('unhandledRejection', onRejection);
    process.off('uncaughtException', onException);
  };
}
