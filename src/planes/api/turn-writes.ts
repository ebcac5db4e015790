/**
 * Answers written together at the end of the event loop's turn instead of one by one as each is
 * ready. On a busy server a turn handles many requests; writing each answer as soon as it is made
 * wakes the client's side once per answer, and on loopback that wake-up is paid inside the
 * server's write(2): measured with a bare node:http server doing 10-20 µs of work per request,
 * its time in `writev` went from 7 to 19-25 µs per answer. Written back to back after the turn's
 * work, the first answer wakes the client and the others find it awake: the same server answered
 * 20-28% more requests a second (bench notes in BENCHMARKS.md). A quiet server's turn holds one
 * request, whose answer leaves as soon as the turn's I/O callbacks have run (microseconds).
 */
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';

interface Pending {
  response: ServerResponse;
  status: number;
  headers: OutgoingHttpHeaders;
  body: Buffer;
}

export class TurnWrites {
  private pending: Pending[] = [];
  private readonly flush = () => {
    const answers = this.pending;
    this.pending = [];
    for (const { response, status, headers, body } of answers) {
      // A client that hung up meanwhile gets nothing; node:http drops writes to a closed socket.
      if (response.destroyed) continue;
      response.writeHead(status, headers);
      response.end(body);
    }
  };

  /** Sends the answer once this turn's other requests have been handled. */
  end(response: ServerResponse, status: number, headers: OutgoingHttpHeaders, body: Buffer): void {
    if (this.pending.push({ response, status, headers, body }) === 1) setImmediate(this.flush);
  }
}
