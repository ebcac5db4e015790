/**
 * Whatever bytes arrive, the DNS plane goes on answering: random datagrams and byte streams, and
 * valid queries with bytes changed, cut or added, over UDP and TCP. After each, a good query must
 * still be answered; whatever the plane sent back to the bad one must be a response (QR set) to
 * its ID, never a copy or a crash.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenDns, type RunningDnsPlane } from '../../../src/planes/dns/listen.js';
import { frame, query, TcpClient, UdpClient } from './clients.js';
import { FakeAuthority } from './fake-authority.js';

const valid = [
  query('example.test', { udpPayloadSize: 1232, dnssecOk: true }),
  query('mid.example.test', { type: 'TXT' }),
  query('nowhere.test', { type: 'MX', udpPayloadSize: 4096 }),
];

/** A valid query with some bytes overwritten, then cut or extended. */
const mutated = fc
  .record({
    base: fc.constantFrom(...valid),
    edits: fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 6 }),
    cut: fc.option(fc.nat()),
    tail: fc.uint8Array({ maxLength: 40 }),
  })
  .map(({ base, edits, cut, tail }) => {
    const bytes = Buffer.from(base);
    for (const [index, value] of edits) bytes[index % bytes.length] = value;
    const kept = cut === null ? bytes : bytes.subarray(0, cut % (bytes.length + 1));
    return Buffer.concat([kept, tail]);
  });
const random = fc.uint8Array({ minLength: 0, maxLength: 600 }).map((bytes) => Buffer.from(bytes));

let plane: RunningDnsPlane;
const logged: unknown[] = [];

beforeAll(async () => {
  plane = await listenDns(new FakeAuthority({ cacheable: true }), '127.0.0.1', 0, { rateLimitPerSecond: 0, logError: (error) => logged.push(error) });
});
afterAll(() => plane.close());

describe('UDP', () => {
  let client: UdpClient;
  let nextId = 0;
  beforeAll(() => {
    client = new UdpClient(plane.port);
  });
  afterAll(() => client.close());

  const check = async (bad: Buffer) => {
    client.received.length = 0;
    client.send(bad);
    // Same socket, same order: the bad datagram is handled before the good one behind it.
    const goodId = 50_000 + (nextId++ % 10_000);
    client.send(query('example.test', { id: goodId }));
    for (;;) {
      const reply = await client.next(2000);
      expect(reply, 'the good query behind the bad one was not answered').not.toBeNull();
      expect(reply!.readUInt8(2) & 0x80).toBe(0x80);
      if (reply!.readUInt16BE(0) === goodId && reply!.length > 12) return;
      expect(reply!.readUInt16BE(0)).toBe(bad.readUInt16BE(0));
    }
  };

  it('survives random datagrams', async () => {
    await fc.assert(fc.asyncProperty(random, check), { numRuns: 300 });
  });

  it('survives mutated queries', async () => {
    await fc.assert(fc.asyncProperty(mutated, check), { numRuns: 500 });
  });
});

describe('TCP', () => {
  /** Sends `stream` on its own connection, then checks a new connection is served. */
  const check = async (stream: Buffer) => {
    const bad = await TcpClient.connect(plane.port);
    await bad.write(stream).catch(() => {});
    bad.socket.end();
    const good = await TcpClient.connect(plane.port);
    await good.write(frame(query('example.test', { id: 77 })));
    expect(await good.next()).toMatchObject({ id: 77, rcode: 'NOERROR' });
    good.destroy();
    bad.destroy();
  };

  it('survives random byte streams', async () => {
    await fc.assert(fc.asyncProperty(random, check), { numRuns: 100 });
  });

  it('survives mutated queries, framed or not, and answers a good one behind them on the same connection when it stays open', async () => {
    await fc.assert(
      fc.asyncProperty(mutated, fc.boolean(), async (bad, framed) => {
        await check(framed ? frame(bad) : bad);
        if (!framed) return;
        const client = await TcpClient.connect(plane.port);
        await client.write(Buffer.concat([frame(bad), frame(query('example.test', { id: 78 }))]));
        for (;;) {
          const answer = await client.next().catch(() => null);
          // Closed after FORMERR: allowed, the message broke the protocol.
          if (answer === null || answer.id === 78) break;
        }
        client.destroy();
      }),
      { numRuns: 150 },
    );
  });
});

it('failed no answer: every bad input was refused by the transport or answered, none broke an encoding', () => {
  expect(logged).toEqual([]);
});
