/**
 * One HTTP request whose target goes on the wire exactly as written (`//host/x`, `/a/..\b`, `%2e%2e`):
 * fetch and undici parse the URL first, which resolves dot segments and turns `\` into `/`.
 *
 *   const res = await rawRequest(edge.port, zone.host, '/public/..\\secret.txt');
 *   res.status, res.headers['location'], res.text
 */
import http from 'node:http';

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** Rejects when no answer came within `timeoutMs` (a plane that died or hung answers nothing). */
export function rawRequest(
  port: number,
  host: string,
  target: string,
  options: { method?: string; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method: options.method ?? 'GET', path: target, headers: { host, ...options.headers }, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.setTimeout(options.timeoutMs ?? 5_000, () => req.destroy(new Error(`no answer to ${target} within ${options.timeoutMs ?? 5_000} ms`)));
    req.on('error', reject);
    req.end();
  });
}
