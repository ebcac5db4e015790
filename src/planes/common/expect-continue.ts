/**
 * `Expect: 100-continue` as RFC 9110 (section 10.1.1) means it: the client waits for `100 Continue`
 * before it sends the body, so a request refused before its body is read (too large, a wrong key, a
 * bad signature) gets its final answer instead, and the body is never sent. Node writes
 * `100 Continue` as soon as the head is parsed unless the server listens for 'checkContinue'; here
 * it is written when the handler first reads the body, and not at all when the answer comes first.
 * Node then closes the connection after that answer (the client may or may not send the body).
 */
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';

/** Lets `handle` answer requests that expect 100-continue, the interim answer sent on the first read of the body. */
export function continueOnRead(server: Server, handle: RequestListener): void {
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    const read = req._read;
    // A Readable's _read runs when something first asks for data, whichever way it reads.
    req._read = function readingStarts(size: number) {
      req._read = read;
      if (!res.headersSent) res.writeContinue();
      read.call(this, size);
    };
    handle(req, res);
  });
}
