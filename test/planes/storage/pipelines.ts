/**
 * Generated pipelines of well-formed HTTP/1.1 requests (DESCRIBE among them, bodies full of text
 * that looks like framing), with what the framer must turn them into and what Node's parser must
 * make of each request. Shared by the framer's own tests and the tests over real sockets.
 */
import fc from 'fast-check';

export const HOST = 'Host: s\r\n';

/** A DESCRIBE head as the front hands it to Node. */
export const rewritten = (head: string) => head.replace(/^DESCRIBE ([^\r]*)\r\n/, 'PROPFIND $1\r\nX-Edgeplane-Method: DESCRIBE\r\n');

export interface GeneratedRequest {
  method: string;
  url: string;
  body: string;
  trailers: Record<string, string>;
}

export interface Pipeline {
  /** What the client sends. */
  input: string;
  /** What the framer must emit. */
  output: string;
  requests: GeneratedRequest[];
}

const token = fc.stringMatching(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,12}$/);
const value = fc.string({ maxLength: 20 }).map((v) => v.replace(/[\r\n]/g, '').trim());
const lookalike = fc.constantFrom(`DESCRIBE / HTTP/1.1\r\n${HOST}\r\n`, '\r\n', '0\r\n\r\n', 'Content-Length: 9\r\n', 'D', '\n', '\r');
const data = fc.array(fc.oneof(fc.string({ maxLength: 20 }), lookalike), { maxLength: 6 }).map((parts) => parts.join(''));
const FRAMING = /^(content-length|transfer-encoding|upgrade|expect|connection|host)$/i;

const body = fc.oneof(
  fc.constant({ kind: 'none' as const }),
  data.map((bytes) => ({ kind: 'length' as const, bytes })),
  fc.record({
    kind: fc.constant('chunked' as const),
    chunks: fc.array(fc.record({ bytes: data.filter((d) => d.length > 0), ext: fc.option(fc.tuple(token, fc.option(token))) }), { maxLength: 4 }),
    trailers: fc.uniqueArray(fc.tuple(token, value), { maxLength: 2, selector: ([name]) => name.toLowerCase() }),
  }),
);

const request = fc.record({
  method: fc.constantFrom('GET', 'PUT', 'DESCRIBE', 'DELETE', 'POST', 'OPTIONS'),
  path: fc.stringMatching(/^\/[a-z0-9/._-]{0,20}$/),
  headers: fc.array(fc.tuple(token, value), { maxLength: 4 }),
  body,
  leadingEmptyLines: fc.nat(2),
});

export const pipeline: fc.Arbitrary<Pipeline> = fc.array(request, { minLength: 1, maxLength: 5 }).map((requests) => {
  let input = '';
  let output = '';
  const generated: GeneratedRequest[] = [];
  for (const r of requests) {
    const headers = r.headers
      .filter(([name]) => !FRAMING.test(name) && !/^trailer$/i.test(name))
      .map(([n, v]) => `${n}: ${v}\r\n`)
      .join('');
    let framing = '';
    let payload = '';
    let bytes = '';
    const trailers: Record<string, string> = {};
    if (r.body.kind === 'length') {
      framing = `Content-Length: ${r.body.bytes.length}\r\n`;
      payload = bytes = r.body.bytes;
    } else if (r.body.kind === 'chunked') {
      framing = 'Transfer-Encoding: chunked\r\n';
      for (const c of r.body.chunks) {
        const ext = c.ext ? `;${c.ext[0]}${c.ext[1] === null ? '' : `=${c.ext[1]}`}` : '';
        payload += `${c.bytes.length.toString(16)}${ext}\r\n${c.bytes}\r\n`;
        bytes += c.bytes;
      }
      payload += `0\r\n${r.body.trailers.map(([n, v]) => `${n}: ${v}\r\n`).join('')}\r\n`;
      for (const [n, v] of r.body.trailers) trailers[n.toLowerCase()] = v;
    }
    const head = `${r.method} ${r.path} HTTP/1.1\r\n${HOST}${headers}${framing}\r\n`;
    const empty = '\r\n'.repeat(r.leadingEmptyLines);
    input += empty + head + payload;
    output += empty + (r.method === 'DESCRIBE' ? rewritten(head) : head) + payload;
    generated.push({ method: r.method, url: r.path, body: bytes, trailers });
  }
  return { input, output, requests: generated };
});

/** Cuts `text` at the given points (taken modulo its length), as latin1 buffers. */
export function cut(text: string, seeds: number[]): Buffer[] {
  const points = [...new Set(seeds.map((s) => s % (text.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let from = 0;
  for (const point of [...points, text.length]) {
    chunks.push(Buffer.from(text.slice(from, point), 'latin1'));
    from = point;
  }
  return chunks;
}
