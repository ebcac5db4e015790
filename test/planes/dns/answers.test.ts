/**
 * The DNS plane's transports over real sockets: answers over UDP and TCP, EDNS sizes and
 * truncation, pipelined TCP queries however they are split, and the errors a bad query gets. The
 * UDP tests run over both of the plane's UDP sockets (batched and node:dgram).
 */
import { encode, type StringAnswer } from 'dns-packet';
import { describe, expect, it } from 'vitest';
import { frame, query, TcpClient, udpAsk } from './clients.js';
import type { DnsPlaneOptions } from '../../../src/planes/dns/listen.js';
import { startPlane, UDP_SOCKETS } from './start.js';

const opt = (packet: { additionals?: { type: string }[] | undefined }) => packet.additionals?.find((record) => record.type === 'OPT');

describe.each(UDP_SOCKETS)('over the %s UDP socket', (kind, socket) => {
  const start = (options: DnsPlaneOptions = {}) => startPlane({ ...socket, ...options });

  describe('UDP', () => {
    it('answers a query from the authority, with its ID and question, and tells who asked', async () => {
      const { plane, authority } = await start();
      expect(plane.url).toBe(`dns://127.0.0.1:${plane.port}`);
      expect(plane.udpSocket).toBe(process.platform === 'linux' ? kind : 'node:dgram');
      const answer = await udpAsk(plane.port, query('example.test', { id: 7 }));
      expect(answer).toMatchObject({
        id: 7,
        type: 'response',
        rcode: 'NOERROR',
        flag_aa: true,
        flag_rd: true,
        questions: [{ name: 'example.test', type: 'A' }],
      });
      expect((answer!.answers![0] as StringAnswer).data).toBe('192.0.2.1');
      expect(opt(answer!)).toBeUndefined();
      expect(authority.seen[0]!.context).toEqual({ address: '127.0.0.1', transport: 'udp', maxSize: 512, dnssecOk: false });
    });

    it('reads EDNS: the advertised size, clamped to what the plane sends, and the DO bit, which the answer echoes', async () => {
      const { plane, authority } = await start();
      const answer = await udpAsk(plane.port, query('example.test', { udpPayloadSize: 4096, dnssecOk: true }));
      expect(opt(answer!)).toMatchObject({ type: 'OPT', udpPayloadSize: 1232, flag_do: true });
      await udpAsk(plane.port, query('example.test', { udpPayloadSize: 100 }));
      expect(authority.seen.map((s) => [s.context.maxSize, s.context.dnssecOk])).toEqual([
        [1232, true],
        [512, false],
      ]);
    });

    it('truncates an answer over the size the client takes: TC set, no records, question and OPT kept', async () => {
      const { plane } = await start();
      const plain = await udpAsk(plane.port, query('mid.example.test', { type: 'TXT' }));
      expect(plain).toMatchObject({ flag_tc: true, answers: [], authorities: [], additionals: [], questions: [{ name: 'mid.example.test' }] });
      const withEdns = await udpAsk(plane.port, query('big.example.test', { type: 'TXT', udpPayloadSize: 1232 }));
      expect(withEdns).toMatchObject({ flag_tc: true, answers: [] });
      expect(opt(withEdns!)).toMatchObject({ udpPayloadSize: 1232 });
    });

    it('honours the advertised EDNS size: an answer of about 1 KiB comes whole to a client that takes 1232 bytes', async () => {
      const { plane } = await start();
      const answer = await udpAsk(plane.port, query('mid.example.test', { type: 'TXT', udpPayloadSize: 1232 }));
      expect(answer!.flag_tc).toBe(false);
      expect(answer!.answers).toHaveLength(5);
    });

    it('sends answers up to maxUdpSize when the plane is configured for more', async () => {
      const { plane } = await start({ maxUdpSize: 4096 });
      const answer = await udpAsk(plane.port, query('big.example.test', { type: 'TXT', udpPayloadSize: 4096 }));
      expect(answer!.answers).toHaveLength(15);
      expect(opt(answer!)).toMatchObject({ udpPayloadSize: 4096 });
    });

    it('answers SERVFAIL when the authority throws, and goes on answering', async () => {
      const errors: unknown[] = [];
      const { plane } = await start({ logError: (error) => errors.push(error) });
      expect(await udpAsk(plane.port, query('throws.example.test', { id: 9 }))).toMatchObject({
        id: 9,
        rcode: 'SERVFAIL',
        questions: [{ name: 'throws.example.test' }],
      });
      expect(errors).toHaveLength(1);
      expect(await udpAsk(plane.port, query('example.test'))).toMatchObject({ rcode: 'NOERROR' });
    });

    it('waits for an authority that answers later', async () => {
      const { plane } = await start();
      expect(await udpAsk(plane.port, query('slow.example.test', { id: 11 }))).toMatchObject({ id: 11, rcode: 'NOERROR', answers: [{ data: '192.0.2.1' }] });
    });

    it('counts each answer through the tally it gives for the answer and the query, with who asked', async () => {
      const calls: [string, string, string][] = [];
      const { plane } = await start({
        tallyOf: (answered, q) => ({
          count: (_address, transport) => calls.push([answered.response.answers?.[0]?.type ?? '-', transport, q.questions![0]!.name]),
        }),
      });
      await udpAsk(plane.port, query('example.test'));
      await udpAsk(plane.port, query('nowhere.test'));
      expect(calls).toEqual([
        ['A', 'udp', 'example.test'],
        ['-', 'udp', 'nowhere.test'],
      ]);
    });
  });

  describe('bad queries', () => {
    const header = (id: number, flags: number, counts: [number, number, number, number]) => {
      const bytes = Buffer.alloc(12);
      bytes.writeUInt16BE(id, 0);
      bytes.writeUInt16BE(flags, 2);
      for (const [i, count] of counts.entries()) bytes.writeUInt16BE(count, 4 + 2 * i);
      return bytes;
    };

    it('answers FORMERR with the ID (and the question when readable), then answers the next good query', async () => {
      const { plane } = await start();
      const twoQuestions = encode({
        id: 21,
        type: 'query',
        questions: [
          { name: 'a.test', type: 'A' },
          { name: 'b.test', type: 'A' },
        ],
      });
      expect(await udpAsk(plane.port, twoQuestions)).toMatchObject({ id: 21, rcode: 'FORMERR', questions: [] });
      const cutShort = query('example.test', { id: 22, udpPayloadSize: 1232 }).subarray(0, -3);
      expect(await udpAsk(plane.port, cutShort)).toMatchObject({ id: 22, rcode: 'FORMERR', questions: [{ name: 'example.test' }] });
      expect(await udpAsk(plane.port, header(23, 0, [1, 0, 0, 0]))).toMatchObject({ id: 23, rcode: 'FORMERR' });
      expect(await udpAsk(plane.port, header(24, 0, [0, 0, 0, 0]))).toMatchObject({ id: 24, rcode: 'FORMERR' });
      expect(await udpAsk(plane.port, query('example.test'))).toMatchObject({ rcode: 'NOERROR' });
    });

    it('answers NOTIMP to another opcode, and BADVERS to an EDNS version above 0', async () => {
      const { plane } = await start();
      const notify = query('example.test', { id: 31 });
      notify.writeUInt16BE(4 << 11, 2);
      expect(await udpAsk(plane.port, notify)).toMatchObject({ id: 31, opcode: 'NOTIFY', rcode: 'NOTIMP' });
      const version1 = query('example.test', { id: 32, udpPayloadSize: 1232 });
      version1.writeUInt8(1, version1.length - 5);
      const answer = await udpAsk(plane.port, version1);
      expect(answer).toMatchObject({ id: 32, rcode: 'NOERROR', answers: [] });
      expect(opt(answer!)).toMatchObject({ extendedRcode: 1, ednsVersion: 0 });
    });

    it('never answers a response, nor a packet too short for an ID', async () => {
      const { plane } = await start();
      const response = query('example.test');
      response.writeUInt16BE(0x8000, 2);
      expect(await udpAsk(plane.port, response, 300)).toBeNull();
      expect(await udpAsk(plane.port, Buffer.from([1, 2, 3]), 300)).toBeNull();
    });
  });
});

describe('TCP', () => {
  it('answers in full what UDP had to truncate', async () => {
    const { plane, authority } = await startPlane();
    expect(await udpAsk(plane.port, query('big.example.test', { type: 'TXT' }))).toMatchObject({ flag_tc: true });
    const client = await TcpClient.connect(plane.port);
    await client.write(frame(query('big.example.test', { type: 'TXT', id: 5 })));
    const answer = await client.next();
    expect(answer).toMatchObject({ id: 5, flag_tc: false });
    expect(answer.answers).toHaveLength(15);
    expect(authority.seen[1]!.context).toEqual({ address: '127.0.0.1', transport: 'tcp', maxSize: 65535, dnssecOk: false });
    client.destroy();
  });

  it('answers several queries on one connection, sent in one write', async () => {
    const { plane } = await startPlane();
    const client = await TcpClient.connect(plane.port);
    await client.write(Buffer.concat([1, 2, 3].map((id) => frame(query(id === 2 ? 'nowhere.test' : 'example.test', { id })))));
    const answers = [await client.next(), await client.next(), await client.next()];
    expect(answers.map((a) => [a.id, a.flags! & 0xf])).toEqual([
      [1, 0],
      [2, 5],
      [3, 0],
    ]);
    client.destroy();
  });

  it('reassembles queries split anywhere across packets, the length prefix included', async () => {
    const { plane } = await startPlane();
    const client = await TcpClient.connect(plane.port);
    const stream = Buffer.concat([frame(query('example.test', { id: 1 })), frame(query('mid.example.test', { id: 2, type: 'TXT' }))]);
    for (const cut of [1, 2, 13, 31, 32, 45]) {
      await client.write(stream.subarray(0, cut));
      await new Promise((resolve) => setTimeout(resolve, 5));
      await client.write(stream.subarray(cut));
      expect((await client.next()).id).toBe(1);
      expect(await client.next()).toMatchObject({ id: 2, answers: { length: 5 } });
    }
    client.socket.setNoDelay(true);
    for (const byte of stream) await client.write(Buffer.from([byte]));
    expect((await client.next()).id).toBe(1);
    expect((await client.next()).id).toBe(2);
    client.destroy();
  });

  it('answers pipelined queries as each is ready: a slow one does not hold up the next', async () => {
    const { plane } = await startPlane();
    const client = await TcpClient.connect(plane.port);
    await client.write(Buffer.concat([frame(query('slow.example.test', { id: 1 })), frame(query('example.test', { id: 2 }))]));
    expect((await client.next()).id).toBe(2);
    expect((await client.next()).id).toBe(1);
    client.destroy();
  });

  it('closes the connection after FORMERR for a malformed message, and after a length too short for a header', async () => {
    const { plane } = await startPlane();
    const client = await TcpClient.connect(plane.port);
    await client.write(frame(query('example.test', { id: 41 }).subarray(0, 20)));
    expect(await client.next()).toMatchObject({ id: 41, rcode: 'FORMERR' });
    expect(await client.closesWithin(1000)).toBe(true);

    const short = await TcpClient.connect(plane.port);
    await short.write(Buffer.from([0, 5, 1, 2, 3, 4, 5]));
    expect(await short.closesWithin(1000)).toBe(true);

    const next = await TcpClient.connect(plane.port);
    await next.write(frame(query('example.test', { id: 42 })));
    expect(await next.next()).toMatchObject({ id: 42, rcode: 'NOERROR' });
    next.destroy();
  });
});
