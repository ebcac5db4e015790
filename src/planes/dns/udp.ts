/**
 * Queries over UDP: one datagram, one answer to its source. Sources over their rate limit get
 * nothing, or every so often an empty truncated answer (see rate-limit.ts).
 */
import type { Datagrams } from './datagrams/datagrams.js';
import { headerReply, RCODE } from './error-replies.js';
import type { SourceRateLimit } from './rate-limit.js';
import type { Responder } from './respond.js';

export class UdpServer<Source> {
  private inFlight = 0;
  private closing = false;

  constructor(
    private readonly datagrams: Datagrams<Source>,
    private readonly responder: Responder,
    private readonly limiter: SourceRateLimit | undefined,
  ) {
    datagrams.start((message, source, now) => this.receive(message, source, now));
  }

  private receive(message: Buffer, source: Source, now: number): void {
    if (this.closing) return;
    const datagrams = this.datagrams;
    const address = datagrams.addressOf(source);
    if (this.limiter !== undefined) {
      const verdict = this.limiter.check(address, now);
      if (verdict !== 'pass' && !this.responder.isSecondary(address)) {
        if (verdict === 'slip' && isQuery(message)) datagrams.reply(source, headerReply(message, RCODE.NOERROR, { truncated: true }));
        return;
      }
    }
    const cached = this.responder.fromCache(message, address, now);
    if (cached !== undefined) {
      datagrams.reply(source, cached);
      return;
    }
    // An answer may be worked out after this call returns (the authority answered with a promise):
    // the message and where to send it must outlive the datagram's buffer.
    let to = source;
    const send = (bytes: Buffer) => datagrams.reply(to, bytes);
    const handled = this.responder.handle(datagrams.keepMessage(message), address, 'udp', send);
    if (typeof handled === 'string') return;
    to = datagrams.keep(source);
    this.inFlight++;
    void handled.finally(() => {
      if (--this.inFlight === 0 && this.closing) void this.datagrams.close(true);
    });
  }

  /** Stops taking queries, waits for the answers still being worked out, then closes the socket. */
  close(): Promise<void> {
    this.closing = true;
    if (this.inFlight === 0) void this.datagrams.close(true);
    return this.datagrams.closed;
  }

  /** Closes at once: answers still being worked out are not sent. */
  closeNow(): void {
    this.closing = true;
    void this.datagrams.close(false);
  }
}

function isQuery(message: Buffer): boolean {
  return message.length >= 12 && (message.readUInt8(2) & 0x80) === 0;
}
