/**
 * The ceiling: a bare node:http server in its own process that answers every request with the
 * bytes and headers captured from a real `GET /pullzone/{id}`, without framework, auth or store.
 * Whatever edgeplane reaches is reported as a share of what this machine and load generator allow.
 *
 * Run as a child: `node --import tsx bench/baseline.ts <payload.json>`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startChild, type Child } from './server.js';

export interface CapturedResponse {
  status: number;
  /** Response headers as sent, minus those node:http writes itself (date, connection, keep-alive). */
  headers: Record<string, string>;
  body: Buffer;
}

export function startBaseline(response: CapturedResponse, workDir: string): Promise<Child> {
  const payload = join(workDir, 'baseline-response.json');
  writeFileSync(payload, JSON.stringify({ status: response.status, headers: response.headers, body: response.body.toString('base64') }));
  return startChild(
    'baseline',
    ['--import', 'tsx', fileURLToPath(import.meta.url), payload],
    /baseline: listening on (http:\/\/127\.0\.0\.1:\d+)/,
    process.env,
  );
}

function serve(payloadFile: string): void {
  const payload = JSON.parse(readFileSync(payloadFile, 'utf8')) as { status: number; headers: Record<string, string>; body: string };
  const body = Buffer.from(payload.body, 'base64');
  const server = createServer((request, reply) => {
    // The request body (if any) is read to the end, as a real server must before answering.
    request.resume();
    reply.writeHead(payload.status, payload.headers);
    reply.end(body);
  });
  // Same keep-alive window as Fastify's default, so connections are reused the same way.
  server.keepAliveTimeout = 72_000;
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('baseline: no TCP address');
    process.stdout.write(`baseline: listening on http://127.0.0.1:${address.port}\n`);
  });
  process.once('SIGTERM', () => server.close(() => process.exit(0)));
  process.once('SIGINT', () => server.close(() => process.exit(0)));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const payloadFile = process.argv[2];
  if (!payloadFile) throw new Error('usage: baseline.ts <payload.json>');
  serve(payloadFile);
}
