/**
 * NOTIFY (RFC 1996) to every configured secondary when a zone's serial moves, so they transfer
 * the change at once instead of at their next refresh. A burst of writes makes one NOTIFY:
 * the first change of a zone waits `delayMs` for the others, and the message carries the serial
 * current when it leaves. Each is signed with the first TSIG key (secondaries take NOTIFY only
 * from their primary's key) and sent again, at doubling intervals from `retryMs`, until the
 * secondary answers (any answer: it has seen it) or `attempts` went unanswered (§3.6). A newer
 * serial replaces a NOTIFY still waiting for its answer.
 */
import { createSocket, type Socket } from 'node:dgram';
import { randomInt } from 'node:crypto';
import { isIPv6 } from 'node:net';
import dnsPacket from 'dns-packet';
import type { Secondary, TsigKey } from '../../../schemas/dns-secondaries.js';
import type { ZoneTransfers } from '../../../domain/dns/transfer/zone-transfers.js';
import { TsigSigner } from './tsig.js';

const OPCODE_NOTIFY = 4;
const AA = 0x0400;

export interface NotifyOptions {
  secondaries: readonly Secondary[];
  /** Signs every NOTIFY when set. */
  key?: TsigKey;
  transfers: ZoneTransfers;
  /** How long the first change of a zone waits for the rest of its burst. Default 250 ms. */
  delayMs?: number;
  /** Wait before the first resend; each later one waits twice as long. Default 2 s. */
  retryMs?: number;
  /** Sendings in all, the first included. Default 6 (about a minute with the default retry). */
  attempts?: number;
  logError?: (error: unknown) => void;
}

interface Pending {
  id: number;
  attempt: number;
  timer: NodeJS.Timeout;
}

export class Notifier {
  private readonly sockets = new Map<4 | 6, Socket>();
  /** Zones whose NOTIFY waits for the end of their burst, by apex. */
  private readonly bursts = new Map<string, NodeJS.Timeout>();
  /** NOTIFYs waiting for an answer, by `apex|address|port`. */
  private readonly pending = new Map<string, Pending>();
  private closed = false;
  private readonly delayMs: number;
  private readonly retryMs: number;
  private readonly attempts: number;

  constructor(private readonly options: NotifyOptions) {
    this.delayMs = options.delayMs ?? 250;
    this.retryMs = options.retryMs ?? 2000;
    this.attempts = options.attempts ?? 6;
    options.transfers.onSerialMoved.push((zone) => this.changed(zone.domain));
  }

  /** A zone's serial moved: its NOTIFY leaves at the end of the burst. */
  changed(apex: string): void {
    if (this.closed || this.options.secondaries.length === 0 || this.bursts.has(apex)) return;
    const timer = setTimeout(() => {
      this.bursts.delete(apex);
      this.notifyAll(apex);
    }, this.delayMs);
    timer.unref();
    this.bursts.set(apex, timer);
  }

  close(): void {
    this.closed = true;
    for (const timer of this.bursts.values()) clearTimeout(timer);
    for (const p of this.pending.values()) clearTimeout(p.timer);
    this.bursts.clear();
    this.pending.clear();
    for (const socket of this.sockets.values()) socket.close();
    this.sockets.clear();
  }

  private notifyAll(apex: string): void {
    // The snapshot of this serial is made now: the history then has it when the secondaries ask.
    try {
      if (!this.options.transfers.snapshot(apex)) return;
    } catch (error) {
      this.options.logError?.(error);
    }
    for (const secondary of this.options.secondaries) this.send(apex, secondary, 1);
  }

  private send(apex: string, secondary: Secondary, attempt: number): void {
    if (this.closed) return;
    const key = `${apex}|${secondary.address}|${secondary.port}`;
    clearTimeout(this.pending.get(key)?.timer);
    const snapshot = this.options.transfers.snapshot(apex);
    if (!snapshot) {
      this.pending.delete(key);
      return;
    }
    const id = randomInt(0, 65536);
    let message = dnsPacket.encode({
      type: 'query',
      id,
      flags: (OPCODE_NOTIFY << 11) | AA,
      questions: [{ name: apex, type: 'SOA', class: 'IN' }],
      answers: [snapshot.soaRecord],
    });
    const now = Math.floor(Date.now() / 1000);
    if (this.options.key) message = new TsigSigner(this.options.key, id).sign(message, now);
    const timer = setTimeout(
      () => {
        if (attempt < this.attempts) this.send(apex, secondary, attempt + 1);
        else this.pending.delete(key);
      },
      this.retryMs * 2 ** (attempt - 1),
    );
    timer.unref();
    this.pending.set(key, { id, attempt, timer });
    this.socketFor(secondary.address).send(message, secondary.port, secondary.address, (error) => {
      if (error) this.options.logError?.(error);
    });
  }

  private socketFor(address: string): Socket {
    const family = isIPv6(address) ? 6 : 4;
    let socket = this.sockets.get(family);
    if (socket) return socket;
    socket = createSocket(family === 6 ? 'udp6' : 'udp4');
    socket.on('error', (error) => this.options.logError?.(error));
    socket.on('message', (message, from) => this.answered(message, from.address, from.port));
    socket.unref();
    this.sockets.set(family, socket);
    return socket;
  }

  /** An answer from a secondary: the NOTIFY it answers needs no more sending. */
  private answered(message: Buffer, address: string, port: number): void {
    if (message.length < 12 || (message.readUInt16BE(2) & 0x8000) === 0 || ((message.readUInt16BE(2) >> 11) & 0xf) !== OPCODE_NOTIFY) return;
    const id = message.readUInt16BE(0);
    for (const [key, pending] of this.pending) {
      if (pending.id !== id || !key.endsWith(`|${address.toLowerCase()}|${port}`)) continue;
      clearTimeout(pending.timer);
      this.pending.delete(key);
    }
  }
}
