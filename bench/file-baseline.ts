/**
 * The ceiling for the file planes: a bare node:http server in its own process that streams files
 * from a directory of the local disk (`GET /<name>`, with the same kind of headers a file answer
 * carries), without auth, metadata lookups or a front. The storage plane's reads are reported as
 * a share of it. Run as a child: `node --import tsx bench/file-baseline.ts <dir>`.
 */
import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startChild, type Child } from './server.js';

export function startFileBaseline(directory: string): Promise<Child> {
  return startChild(
    'file-baseline',
    ['--import', 'tsx', fileURLToPath(import.meta.url), directory],
    /file-baseline: listening on (http:\/\/127\.0\.0\.1:\d+)/,
    process.env,
  );
}

function serve(directory: string): void {
  const server = createServer((request, reply) => {
    const path = join(directory, (request.url ?? '/').slice(1).replace(/[^A-Za-z0-9._-]/g, ''));
    let size: number;
    let modified: Date;
    try {
      const stats = statSync(path);
      size = stats.size;
      modified = stats.mtime;
    } catch {
      reply.writeHead(404).end();
      return;
    }
    reply.writeHead(200, {
      'content-type': 'application/octet-stream',
      'content-length': size,
      etag: `"${size}-${modified.getTime()}"`,
      'last-modified': modified.toUTCString(),
      'accept-ranges': 'bytes',
    });
    createReadStream(path).pipe(reply);
  });
  server.keepAliveTimeout = 72_000;
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('file-baseline: no TCP address');
    process.stdout.write(`file-baseline: listening on http://127.0.0.1:${address.port}\n`);
  });
  process.once('SIGTERM', () => server.close(() => process.exit(0)));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const directory = process.argv[2];
  if (!directory) throw new Error('usage: file-baseline.ts <dir>');
  serve(directory);
}
