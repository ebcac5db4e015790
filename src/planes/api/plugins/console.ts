/**
 * The web console: its page at `/` and its files under /console/, read from the folder the build
 * wrote them to (scripts/bundle.mjs: console/ beside the server's bundle). Public like /docs; the
 * page itself calls the API with the key the user enters, which never appears in a URL.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { packageRoot } from '../../../package-root.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

/**
 * Scripts and styles from this server only; the API calls go here too, the file API and the
 * video plane (other ports, or other hosts) are reached with `connect-src` http(s) and the
 * downloads and player with `blob:`.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob: http: https:",
  "connect-src 'self' http: https:",
  // The player: the video plane's embed page, at its own port.
  'frame-src http: https:',
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

interface ConsoleFile {
  body: Buffer;
  type: string;
  etag: string;
}

/** The built console's folder: beside the running bundle, or the package's dist/bundle/ when run from the sources. */
export function defaultConsoleDir(): string {
  const beside = join(dirname(fileURLToPath(import.meta.url)), 'console');
  return existsSync(join(beside, 'index.html')) ? beside : join(packageRoot(), 'dist', 'bundle', 'console');
}

/** What the page needs to know of the other planes it calls: their ports, when fixed (null: chosen at start, or off). */
export interface ConsolePlanes {
  storage: number | null;
  video: number | null;
}

export function registerConsole(app: FastifyInstance, folder: string, planes: ConsolePlanes): void {
  const files = new Map<string, ConsoleFile | null>();
  const read = (name: string): ConsoleFile | null => {
    if (!files.has(name)) {
      const path = join(folder, name);
      const extension = name.slice(name.lastIndexOf('.'));
      const type = TYPES[extension];
      const body = type !== undefined && existsSync(path) ? readFileSync(path) : undefined;
      files.set(
        name,
        body === undefined || type === undefined ? null : { body, type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` },
      );
    }
    return files.get(name) ?? null;
  };

  const send = (request: FastifyRequest, reply: FastifyReply, name: string) => {
    const file = read(name);
    if (!file) {
      const detail = name === 'index.html' ? 'The console is not built here: `npm run build` writes it.' : `No console file ${name}.`;
      return reply.code(404).type('text/plain; charset=utf-8').send(detail);
    }
    reply
      .header('content-security-policy', CONTENT_SECURITY_POLICY)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
      .header('cache-control', 'no-cache')
      .header('etag', file.etag)
      .type(file.type);
    if (request.headers['if-none-match'] === file.etag) return reply.code(304).send();
    return reply.send(file.body);
  };

  app.get('/', { schema: { hide: true } }, (request, reply) => send(request, reply, 'index.html'));
  app.get('/console/planes.json', { schema: { hide: true } }, () => planes);
  app.get<{ Params: { file: string } }>('/console/:file', { schema: { hide: true } }, (request, reply) => {
    const name = request.params.file;
    // Only the build's own flat file names: no folders, so no way out of the folder.
    if (!/^[A-Za-z0-9_-]+\.[a-z]+$/.test(name)) return reply.code(404).type('text/plain; charset=utf-8').send(`No console file ${name}.`);
    return send(request, reply, name);
  });
}
