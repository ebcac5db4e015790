/**
 * The edge benchmark's origin, and its ceiling at once: a bare node:http server in its own process
 * that answers every `GET /obj/<anything>` with the same 10 KiB (`Cache-Control: max-age=3600`,
 * an ETag), and counts the requests per path (`GET /_count?path=/obj/x` → the count), so the miss
 * storm can tell how many reached it. `/slow/...` answers the same after 200 ms: a wide window for
 * concurrent misses. `GET /css/<anything>` answers a 10 KiB stylesheet (`text/css`, uncompressed
 * whatever the request accepts): what the edge and Varnish compress. `GET /img/photo.jpg` answers a
 * 2000x1500 JPEG (photo()), `/img/photo-400.jpg` the same resized to 400 px: what the optimizer
 * resizes, and a plain copy of its variant. Run as a child:
 * `node --import tsx bench/edge-origin.ts`.
 */
import { createServer } from 'node:http';
import sharp from 'sharp';
import { fileURLToPath } from 'node:url';
import { startChild, type Child } from './server.js';

export const OBJECT_BYTES = 10 * 1024;

/** A stylesheet of `bytes` bytes: rules that differ as a real one's do (class names, colours, sizes), about 5x smaller gzipped. */
export function stylesheet(bytes: number): Buffer {
  let text = '';
  for (let i = 0; text.length < bytes; i++) {
    const colour = ((i * 2654435761) >>> 0).toString(16).padStart(8, '0').slice(0, 6);
    text += `.card-${i} .item-${i % 37} > a:hover { color: #${colour}; margin: ${i % 13}px ${i % 7}px; padding: 0 ${i % 5}em; font-weight: ${((i % 9) + 1) * 100}; }\n`;
  }
  return Buffer.from(text.slice(0, bytes));
}

export const PHOTO_WIDTH = 2000;
export const PHOTO_HEIGHT = 1500;

/** A 2000x1500 photograph-like JPEG (noise over grey: random, but of the same size and cost every call). */
export function photo(): Promise<Buffer> {
  return sharp({ create: { width: PHOTO_WIDTH, height: PHOTO_HEIGHT, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 30 } } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

export function startEdgeOrigin(): Promise<Child> {
  return startChild('edge-origin', ['--import', 'tsx', fileURLToPath(import.meta.url)], /edge-origin: listening on (http:\/\/127\.0\.0\.1:\d+)/, process.env);
}

async function serve(): Promise<void> {
  const body = Buffer.alloc(OBJECT_BYTES, 'edgeplane bench object ');
  const headers = { 'content-type': 'application/octet-stream', 'content-length': body.length, 'cache-control': 'max-age=3600', etag: '"bench-10k"' };
  const css = stylesheet(OBJECT_BYTES);
  const cssHeaders = { 'content-type': 'text/css; charset=utf-8', 'content-length': css.length, 'cache-control': 'max-age=3600', etag: '"bench-css"' };
  const original = await photo();
  const images: Record<string, Buffer> = {
    '/img/photo.jpg': original,
    '/img/photo-400.jpg': await sharp(original).resize({ width: 400 }).jpeg({ quality: 85 }).toBuffer(),
  };
  const counts = new Map<string, number>();
  const server = createServer((request, reply) => {
    const url = request.url ?? '/';
    if (url.startsWith('/_count?path=')) {
      reply.end(String(counts.get(decodeURIComponent(url.slice('/_count?path='.length))) ?? 0));
      return;
    }
    counts.set(url, (counts.get(url) ?? 0) + 1);
    const image = images[url.split('?')[0]!];
    if (image) {
      reply.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': image.length, 'cache-control': 'max-age=3600' }).end(image);
      return;
    }
    if (url.startsWith('/css/')) {
      reply.writeHead(200, cssHeaders).end(css);
      return;
    }
    if (url.startsWith('/slow/')) {
      setTimeout(() => reply.writeHead(200, headers).end(body), 200);
      return;
    }
    reply.writeHead(200, headers).end(body);
  });
  server.keepAliveTimeout = 72_000;
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('edge-origin: no TCP address');
    process.stdout.write(`edge-origin: listening on http://127.0.0.1:${address.port}\n`);
  });
  process.once('SIGTERM', () => server.close(() => process.exit(0)));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) void serve();
