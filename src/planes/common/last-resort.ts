/**
 * The last word on a request a plane could not answer. Each plane answers its own failures (the
 * storage plane's JSON, S3's XML, the edge's page); should that answer throw too (a header
 * node:http refuses, a response in a state nobody expected), the error is logged and the client
 * gets a bare 500, or the connection is ended when the answer's head was already sent. So nothing
 * one request causes, thrown at once or from a promise, reaches the process as an uncaught
 * exception or an unhandled rejection.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

type Listener = (req: IncomingMessage, res: ServerResponse) => Promise<void> | void;

/** The listener, with whatever it throws or rejects with answered by `lastResort`. */
export function guardedListener(listener: Listener, logError: (error: unknown) => void): RequestListener {
  return (req, res) => {
    let result: Promise<void> | void;
    try {
      result = listener(req, res);
    } catch (error) {
      lastResort(res, error, logError);
      return;
    }
    if (result) result.catch((error: unknown) => lastResort(res, error, logError));
  };
}

const TEXT = 'Internal Server Error';

/** Logs the error; answers a bare 500 when nothing was sent yet, else ends the connection. Never throws. */
export function lastResort(res: ServerResponse, error: unknown, logError: (error: unknown) => void): void {
  try {
    logError(error);
  } catch {
    // A logger that fails has nowhere left to report to.
  }
  if (res.headersSent || res.destroyed) {
    res.destroy();
    return;
  }
  try {
    res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8', 'content-length': TEXT.length, connection: 'close' });
    res.end(TEXT);
  } catch {
    res.destroy();
  }
}
