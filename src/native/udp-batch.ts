/**
 * The native addon of native/udp-batch: UDP read and written many datagrams per system call
 * (recvmmsg, sendmmsg). The DNS plane's socket (src/planes/dns/datagrams/batched.ts) and the edge's
 * log forwarding over UDP (domain/edge/logs/forwarding/datagrams.ts) use it. Built by `npm ci` on
 * Linux; where it is not there, each uses node:dgram.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface UdpBatchAddon {
  readonly SLOTS: number;
  readonly SLOT_BYTES: number;
  readonly META_INTS: number;
  /** Datagrams one `sendMany` sends at most; undefined in an addon built before senders existed. */
  readonly SEND_MAX: number | undefined;
  open(
    host: string,
    port: number,
    family: 4 | 6,
    receiveBufferBytes: number,
    inData: Buffer,
    inMeta: Buffer,
    outData: Buffer,
    outMeta: Buffer,
    onBatch: (count: number) => number,
  ): { handle: object; port: number };
  sendTo(handle: object, bytes: Buffer, source: Buffer): void;
  addressOf(source: Buffer): string;
  close(handle: object): void;
  /** A socket that sends to one address (not a name); throws as a socket's bind does. */
  openSender(address: string, port: number, family: 4 | 6): object;
  /** Sends the first `count` datagrams packed in `data` (lengths in `lengths`) with one sendmmsg; answers how many the kernel took or refused (the rest: its send buffer is full). */
  sendMany(sender: object, data: Buffer, lengths: Int32Array, count: number): number;
  closeSender(sender: object): void;
}

const ADDON_PATH = join('native', 'udp-batch', 'build', 'Release', 'udp_batch.node');

/** The addon, or why it is not there. From src/native in the sources, dist/bundle in the bundle: the first folder up that has it. */
function loadAddon(): UdpBatchAddon | Error {
  if (process.platform !== 'linux') return new Error('UDP batching needs Linux (recvmmsg, sendmmsg)');
  let folder = dirname(fileURLToPath(import.meta.url));
  for (let up = 0; up < 5; up++, folder = dirname(folder)) {
    const path = join(folder, ADDON_PATH);
    if (!existsSync(path)) continue;
    try {
      return createRequire(import.meta.url)(path) as UdpBatchAddon;
    } catch (error) {
      return error as Error;
    }
  }
  return new Error(`${ADDON_PATH} was not built (npm ci builds it; see npm's output)`);
}

let loaded: UdpBatchAddon | Error | undefined;

/** The addon, loaded at the first call; an Error says why it cannot be used. */
export function udpBatching(): UdpBatchAddon | Error {
  loaded ??= loadAddon();
  return loaded;
}
