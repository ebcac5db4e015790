/**
 * The framer on its own, fed bytes in every way a socket could cut them: what it emits must depend
 * on the bytes only, never on the cuts, and must be the input itself but for rewritten DESCRIBE
 * heads. Over real sockets and Node's parser: extension-methods.test.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RequestFramer } from '../../../src/planes/storage/request-framer.js';
import { cut, HOST as H, pipeline, rewritten } from './pipelines.js';

const HEAD_LIMIT = 32 * 1024;

function run(chunks: (string | Buffer)[], headLimit = HEAD_LIMIT) {
  const emitted: Buffer[] = [];
  const framer = new RequestFramer((bytes) => emitted.push(bytes), { headLimit });
  const fed = chunks.map((c) => (typeof c === 'string' ? Buffer.from(c, 'latin1') : c));
  for (const chunk of fed) framer.push(chunk);
  return { framer, emitted, fed, output: Buffer.concat(emitted).toString('latin1') };
}

const bytewise = (text: string) => [...text].map((c) => Buffer.from(c, 'latin1'));
const SMUGGLED = `DESCRIBE / HTTP/1.1\r\n${H}\r\n`;
const chunk = (data: string, ext = '') => `${data.length.toString(16)}${ext}\r\n${data}\r\n`;
const PIPELINE = [
  `PUT /z/a.txt HTTP/1.1\r\n${H}Content-Length: 5\r\n\r\nhello`,
  `DESCRIBE /z/a.txt HTTP/1.1\r\n${H}\r\n`,
  `GET /z/a.txt HTTP/1.1\r\n${H}\r\n`,
  `PUT /z/b.txt HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\n\r\n${chunk('DESC', ';name=v;q="a\\"b"')}${chunk(SMUGGLED.slice(4))}0\r\nX-Sum: 1\r\n\r\n`,
  `DESCRIBE /z/b.txt HTTP/1.1\r\n${H}Content-Length: ${SMUGGLED.length}\r\n\r\n${SMUGGLED}`,
];
const PIPELINE_OUT = PIPELINE.map((r) => (r.startsWith('DESCRIBE') ? rewritten(r) : r)).join('');

describe('request framer', () => {
  it('rewrites each DESCRIBE head and nothing else, for any cut of the stream', () => {
    const stream = PIPELINE.join('');
    expect(run([stream]).output).toBe(PIPELINE_OUT);
    expect(run(bytewise(stream)).output).toBe(PIPELINE_OUT);
    for (let cut = 1; cut < stream.length; cut++) {
      const { output, framer } = run([stream.slice(0, cut), stream.slice(cut)]);
      expect(output, `cut at ${cut}`).toBe(PIPELINE_OUT);
      expect(framer.passingThrough).toBe(false);
    }
  });

  it('forwards a chunk that needs no rewrite as the same buffer, and bodies by count', () => {
    const chunk = Buffer.from(`PUT /a HTTP/1.1\r\n${H}Content-Length: 70000\r\n\r\n`);
    const body = Buffer.alloc(70000, 'D');
    const { emitted, fed } = run([chunk, body.subarray(0, 65536), body.subarray(65536)]);
    expect(emitted).toHaveLength(3);
    for (const [i, bytes] of emitted.entries()) expect(bytes).toBe(fed[i]);
  });

  it('keeps a request back only while it may be a DESCRIBE', () => {
    const emitted: string[] = [];
    const framer = new RequestFramer((bytes) => emitted.push(bytes.toString('latin1')), { headLimit: HEAD_LIMIT });
    framer.push(Buffer.from('DE'));
    expect(emitted).toEqual([]);
    framer.push(Buffer.from('L'));
    expect(emitted.join('')).toBe('DEL');
    framer.push(Buffer.from('ETE /x HTTP/1.1\r\n'));
    expect(emitted.join('')).toBe('DELETE /x HTTP/1.1\r\n');
    framer.push(Buffer.from(`${H}\r\nDESCRIBE /y HTTP/1.1\r\n${H}`));
    expect(emitted.join('')).toBe(`DELETE /x HTTP/1.1\r\n${H}\r\n`);
    expect(framer.holding).toBe(true);
    framer.push(Buffer.from('\r\n'));
    expect(framer.holding).toBe(false);
    expect(emitted.join('')).toBe(`DELETE /x HTTP/1.1\r\n${H}\r\nPROPFIND /y HTTP/1.1\r\nX-Edgeplane-Method: DESCRIBE\r\n${H}\r\n`);
    emitted.length = 0;
    framer.push(Buffer.from('DESCRIB'));
    expect(emitted).toEqual([]);
    framer.push(Buffer.from('ER'));
    expect(emitted.join('')).toBe('DESCRIBER');
  });

  it('lets a held head through untouched when told to give up (input ended, head too slow)', () => {
    const emitted: string[] = [];
    const framer = new RequestFramer((bytes) => emitted.push(bytes.toString('latin1')), { headLimit: HEAD_LIMIT });
    framer.push(Buffer.from('GET / HTTP/1.1\r\n\r\nDESCRIBE /y HTTP/1.1\r\nHo'));
    framer.passThrough();
    framer.push(Buffer.from('st: s\r\n\r\n'));
    expect(emitted.join('')).toBe('GET / HTTP/1.1\r\n\r\nDESCRIBE /y HTTP/1.1\r\nHost: s\r\n\r\n');
    expect(framer.passingThrough).toBe(true);
  });

  it('skips the empty lines llhttp skips between requests', () => {
    const stream = `\r\n\r\nDESCRIBE /a HTTP/1.1\r\n${H}\r\n\r\nGET / HTTP/1.1\r\n${H}\r\n`;
    const expected = `\r\n\r\n${rewritten(`DESCRIBE /a HTTP/1.1\r\n${H}\r\n`)}\r\nGET / HTTP/1.1\r\n${H}\r\n`;
    expect(run(bytewise(stream)).output).toBe(expected);
  });

  // Each is followed by a DESCRIBE that a framer still framing would rewrite: after giving up it
  // must not, and every byte must come out as it went in.
  const notUnderstood: Record<string, string> = {
    'both Content-Length and Transfer-Encoding': `PUT / HTTP/1.1\r\n${H}Content-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
    'Transfer-Encoding other than chunked': `PUT / HTTP/1.1\r\n${H}Transfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n`,
    'Transfer-Encoding chunked, then another': `PUT / HTTP/1.1\r\n${H}Transfer-Encoding: chunked, gzip\r\n\r\n0\r\n\r\n`,
    'Transfer-Encoding chunked with a suffix': `PUT / HTTP/1.1\r\n${H}Transfer-Encoding: chunkedx\r\n\r\n0\r\n\r\n`,
    'Transfer-Encoding twice': `PUT / HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
    'chunked on HTTP/1.0': `PUT / HTTP/1.0\r\n${H}Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
    'invalid Content-Length': `PUT / HTTP/1.1\r\n${H}Content-Length: 3x\r\n\r\nabc`,
    'Content-Length list': `PUT / HTTP/1.1\r\n${H}Content-Length: 3, 3\r\n\r\nabc`,
    'Content-Length repeated, different': `PUT / HTTP/1.1\r\n${H}Content-Length: 3\r\nContent-Length: 4\r\n\r\nabc`,
    'Content-Length repeated, same': `PUT / HTTP/1.1\r\n${H}Content-Length: 3\r\nContent-Length: 3\r\n\r\nabc`,
    'Content-Length beyond 2^53': `PUT / HTTP/1.1\r\n${H}Content-Length: 9999999999999999\r\n\r\n`,
    'obsolete line folding': `GET / HTTP/1.1\r\n${H}X-A: 1\r\n 2\r\n\r\n`,
    'bare LF': `GET / HTTP/1.1\n${H}\n`,
    'bare CR': `GET / HTTP/1.1\r\n${H}X-A: 1\r2\r\n\r\n`,
    'bare LF between requests': `\nGET / HTTP/1.1\r\n${H}\r\n`,
    'space before the colon': `PUT / HTTP/1.1\r\n${H}Content-Length : 3\r\n\r\nabc`,
    'two spaces in the request line': `GET  / HTTP/1.1\r\n${H}\r\n`,
    'HTTP/0.9': 'GET /\r\n\r\n',
    'HTTP/2 preface': 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n',
    CONNECT: `CONNECT s:443 HTTP/1.1\r\n${H}\r\n`,
    Upgrade: `GET / HTTP/1.1\r\n${H}Connection: upgrade\r\nUpgrade: websocket\r\n\r\n`,
    'chunk size with whitespace': `PUT / HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\n\r\n3 \r\nabc\r\n0\r\n\r\n`,
    'chunk extension with whitespace': `PUT / HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\n\r\n3; a=b\r\nabc\r\n0\r\n\r\n`,
    'unterminated quoted extension': `PUT / HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\n\r\n3;a="b\r\nabc\r\n0\r\n\r\n`,
    'chunk size of 14 digits': `PUT / HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\n\r\n00000000000003\r\nabc\r\n0\r\n\r\n`,
    'chunk data longer than its size': `PUT / HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\n\r\n3\r\nabcd\r\n0\r\n\r\n`,
    'trailer with folding': `PUT / HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\n\r\n0\r\nT: 1\r\n 2\r\n\r\n`,
    'head over the limit': `GET / HTTP/1.1\r\n${H}X-Big: ${'a'.repeat(HEAD_LIMIT)}\r\n\r\n`,
  };
  const followUp = `DESCRIBE /z/f HTTP/1.1\r\n${H}\r\n`;

  for (const [name, request] of Object.entries(notUnderstood)) {
    it(`passes the rest of the connection through untouched after: ${name}`, () => {
      const stream = request + followUp;
      for (const chunks of [[stream], bytewise(stream)]) {
        const { output, framer } = run(chunks);
        expect(output).toBe(stream);
        expect(framer.passingThrough).toBe(true);
      }
    });
  }

  it('gives up on a DESCRIBE head it does not understand, letting it through as it came', () => {
    const stream = `DESCRIBE /z/f HTTP/1.1\r\n${H}Content-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`;
    expect(run(bytewise(stream)).output).toBe(stream);
  });

  it('frames any generated pipeline the same whatever the cuts', () => {
    fc.assert(
      fc.property(pipeline, fc.array(fc.nat(), { maxLength: 12 }), ({ input, output: expected }, seeds) => {
        const { output, framer } = run(cut(input, seeds));
        expect(framer.passingThrough).toBe(false);
        expect(output).toBe(expected);
      }),
      { numRuns: 1000 },
    );
  });
});
