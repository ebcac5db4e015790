/**
 * What the edge's pipeline hands to the listener to write: status, headers, a body (bytes from the
 * cache or a page, a stream passing through from the origin, nothing for HEAD and 304), an
 * optional throttle, and `done`, called once the answer is written or abandoned (usage, limits).
 */
import type { Readable, Transform } from 'node:stream';
import type { EdgeAnswer } from '../../domain/edge/types.js';

export interface Delivery {
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer | Readable | undefined;
  cacheStatus: EdgeAnswer['cacheStatus'];
  /** Paces the body to the client (LimitRatePerSecond, a rule's or a token's limit). */
  throttle?: Transform | undefined;
  /** Called exactly once: the body bytes written, and whether the client got the whole answer. */
  done(bytesSent: number): void;
}

const NOTHING = () => undefined;

/** A page of the edge's own (unknown host, refused, origin failed), with no zone to report to. */
export function plainDelivery(status: number, headers: Record<string, string>, body: string | Buffer, done: (bytes: number) => void = NOTHING): Delivery {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  return { status, headers: { ...headers, 'content-length': String(bytes.length) }, body: bytes, cacheStatus: 'BYPASS', done };
}
