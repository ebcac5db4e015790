/**
 * The DNS plane's UDP socket as its server uses it: datagrams in, each with where it came from;
 * answers out to where a datagram came from. Two sockets do it: one over `node:dgram`, which
 * runs everywhere, and one reading and writing many datagrams per system call (Linux, the native
 * addon in native/udp-batch), used when it could be built.
 */
export interface Datagrams<Source = unknown> {
  /** The port bound. */
  readonly port: number;
  readonly kind: 'batched' | 'node:dgram';
  /**
   * `receive` gets every datagram from now on, with the time it was read (performance.now()).
   * `message` and `source` are valid during that call only: what is used after it must be kept
   * (`keep`, `keepMessage`) during it.
   */
  start(receive: (message: Buffer, source: Source, now: number) => void): void;
  /** Sends `bytes` to where the datagram of `source` came from; it leaves by the end of the event loop's turn. */
  reply(source: Source, bytes: Buffer): void;
  /** A source that stays valid after `receive` returns, for an answer worked out later. */
  keep(source: Source): Source;
  keepMessage(message: Buffer): Buffer;
  /** The sender's address as node:dgram reports it (`::ffff:192.0.2.1` on a dual-stack socket). */
  addressOf(source: Source): string;
  /**
   * Stops receiving and closes the socket; answers already given to `reply` are sent first when
   * `flush`, else dropped. A second call changes nothing. Returns `closed`.
   */
  close(flush: boolean): Promise<void>;
  /** Resolves once the socket is closed, by whichever call of `close`. */
  readonly closed: Promise<void>;
}
