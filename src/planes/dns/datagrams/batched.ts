/**
 * The DNS plane's UDP socket over the native addon of native/udp-batch: up to 64 datagrams read
 * with one `recvmmsg`, handed to JavaScript in one call, and the answers made during it sent with
 * one `sendmmsg`. node:dgram pays a system call, a 64 KiB allocation and an address object per
 * datagram, more than the plane's own work per query (BENCHMARKS.md). The addon is built by
 * `npm ci` on Linux (src/native/udp-batch.ts loads it); where it is not there, the plane uses
 * node:dgram (node-dgram.ts).
 */
import type { UdpBatchAddon as Addon } from '../../../native/udp-batch.js';
import type { Datagrams } from './datagrams.js';
import { RECEIVE_BUFFER_BYTES } from './node-dgram.js';

/** IPv4 senders' addresses as text, by their 32 bits: a busy server hears the same few again and again. */
const ADDRESS_TEXTS_KEPT = 10_000;

/**
 * A source is the slot of its datagram in the current batch (a number) while `receive` runs, and a
 * copy of the slot's description (family, port, address) once kept.
 */
type Source = number | Buffer;

export class BatchedDatagrams implements Datagrams<Source> {
  readonly kind = 'batched';
  readonly port: number;
  private readonly handle: object;
  private readonly inData: Buffer;
  private readonly inMeta: Buffer;
  private readonly meta: Int32Array;
  private readonly outData: Buffer;
  private readonly outMeta: Int32Array;
  private receive: ((message: Buffer, source: Source, now: number) => void) | undefined;
  /** Answers given to `reply` during the current batch; -1 outside a batch. */
  private answers = -1;
  readonly closed: Promise<void>;
  private resolveClosed!: () => void;
  /** No datagram is handed on nor answer sent any more. */
  private stopped = false;
  private readonly addressTexts = new Map<number, string>();

  /** Binds at once; throws as a socket's bind does (`code`: EADDRINUSE, …). */
  constructor(
    private readonly addon: Addon,
    address: string,
    family: 4 | 6,
    port: number,
  ) {
    const { SLOTS, SLOT_BYTES, META_INTS } = addon;
    this.inData = Buffer.alloc(SLOTS * SLOT_BYTES);
    this.inMeta = Buffer.alloc(SLOTS * META_INTS * 4);
    this.meta = new Int32Array(this.inMeta.buffer, this.inMeta.byteOffset, SLOTS * META_INTS);
    this.outData = Buffer.alloc(SLOTS * SLOT_BYTES);
    const outMeta = Buffer.alloc(SLOTS * 3 * 4);
    this.outMeta = new Int32Array(outMeta.buffer, outMeta.byteOffset, SLOTS * 3);
    this.closed = new Promise<void>((resolve) => (this.resolveClosed = resolve));
    const opened = addon.open(address, port, family, RECEIVE_BUFFER_BYTES, this.inData, this.inMeta, this.outData, outMeta, (count) => this.onBatch(count));
    this.handle = opened.handle;
    this.port = opened.port;
  }

  start(receive: (message: Buffer, source: Source, now: number) => void): void {
    this.receive = receive;
  }

  /** The addon's call: `count` datagrams are in their slots; returns how many answers it is to send. */
  private onBatch(count: number): number {
    const receive = this.receive;
    if (receive === undefined || this.stopped) return 0;
    const { SLOT_BYTES, META_INTS } = this.addon;
    const now = performance.now();
    this.answers = 0;
    try {
      for (let slot = 0; slot < count; slot++) {
        const length = this.meta[slot * META_INTS]!;
        // Larger than a slot (4096 bytes): no DNS query is; dropped, as malformed packets may be.
        if (length < 0) continue;
        const offset = slot * SLOT_BYTES;
        receive(this.inData.subarray(offset, offset + length), slot, now);
      }
      return this.stopped ? 0 : this.answers;
    } finally {
      this.answers = -1;
    }
  }

  reply(source: Source, bytes: Buffer): void {
    if (this.stopped) return;
    const { SLOTS, SLOT_BYTES } = this.addon;
    const n = this.answers;
    if (typeof source === 'number' && n >= 0 && n < SLOTS && bytes.length <= SLOT_BYTES) {
      const offset = n * SLOT_BYTES;
      bytes.copy(this.outData, offset);
      this.outMeta[n * 3] = source;
      this.outMeta[n * 3 + 1] = offset;
      this.outMeta[n * 3 + 2] = bytes.length;
      this.answers = n + 1;
      return;
    }
    this.addon.sendTo(this.handle, bytes, this.keep(source));
  }

  keep(source: Source): Buffer {
    if (typeof source !== 'number') return source;
    const size = this.addon.META_INTS * 4;
    return Buffer.from(this.inMeta.subarray(source * size, source * size + size));
  }

  keepMessage(message: Buffer): Buffer {
    return Buffer.from(message);
  }

  addressOf(source: Source): string {
    if (typeof source !== 'number') return this.addon.addressOf(source);
    const at = source * this.addon.META_INTS;
    if (this.meta[at + 1] !== 4) return this.addon.addressOf(this.keep(source));
    const bits = this.meta[at + 4]!;
    let text = this.addressTexts.get(bits);
    if (text === undefined) {
      if (this.addressTexts.size >= ADDRESS_TEXTS_KEPT) this.addressTexts.clear();
      text = this.addon.addressOf(this.keep(source));
      this.addressTexts.set(bits, text);
    }
    return text;
  }

  /** Answers wait only inside a batch (sent at its end): a close during one sends those made so far when `flush`. */
  close(flush: boolean): Promise<void> {
    if (!this.stopped) {
      if (flush) this.sendAnswersNow();
      this.stopped = true;
      this.addon.close(this.handle);
      // libuv closes the descriptor in the loop's close phase, which follows the check phase of
      // setImmediate: the second one runs after it, whichever phase this was called in.
      setImmediate(() => setImmediate(this.resolveClosed));
    }
    return this.closed;
  }

  private sendAnswersNow(): void {
    const { SLOTS, SLOT_BYTES } = this.addon;
    for (let i = 0; i < this.answers && i < SLOTS; i++) {
      const offset = this.outMeta[i * 3 + 1]!;
      const answer = this.outData.subarray(offset, Math.min(offset + this.outMeta[i * 3 + 2]!, offset + SLOT_BYTES));
      this.addon.sendTo(this.handle, answer, this.keep(this.outMeta[i * 3]!));
    }
    if (this.answers > 0) this.answers = 0;
  }
}
