/**
 * The container bench's peer for the edge: a bare node:http reverse proxy in its own process, one
 * keep-alive agent to one target, nothing else (no routing, cache, logs): what any Node proxy in
 * front of the container costs at least. Run as a child:
 * `node --import tsx bench/bare-proxy.ts http://127.0.0.1:PORT`.
 */
import { Agent, createServer, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { startChild, type Child } from './server.js';

export function startBareProxy(target: string): Promise<Child> {
  return startChild(
    'bare-proxy',
    ['--import', 'tsx', fileURLToPath(import.meta.url), target],
    /bare-proxy: listening on (http:\/\/127\.0\.0\.1:\d+)/,
    process.env,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const target = new URL(process.argv[2] ?? '');
  const agent = new Agent({ keepAlive: true, maxSockets: 512 });
  const server = createServer((req, res) => {
    const upstream = request(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: { ...req.headers, host: target.host }, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.once('error', () => {
      res.writeHead(502).end();
    });
    req.pipe(upstream);
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as { port: number };
    process.stdout.write(`bare-proxy: listening on http://127.0.0.1:${port}\n`);
  });
}
