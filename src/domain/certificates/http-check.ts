/**
 * Fetches an HTTP challenge the way a certificate authority would reach it: `GET
 * /.well-known/acme-challenge/<token>` with the hostname as `Host`, sent to edgeplane's own edge,
 * since that is where traffic for a hostname pointed at the platform arrives. Bounded in time and
 * size; never throws: the outcome says what was seen.
 */
import { request } from 'node:http';
import { CHALLENGE_PATH } from './http-challenges.js';

const TIMEOUT_MS = 5_000;
/** A challenge body is under 100 bytes; anything past this is not one. */
const MAX_BODY = 4096;

export type FetchOutcome = { ok: true; status: number; body: string } | { ok: false; problem: string };

export function fetchChallenge(edgeUrl: string, hostname: string, token: string): Promise<FetchOutcome> {
  const url = new URL(`${CHALLENGE_PATH}${token}`, edgeUrl);
  return new Promise((resolve) => {
    const req = request(url, { method: 'GET', headers: { host: hostname, accept: '*/*' }, timeout: TIMEOUT_MS }, (res) => {
      const parts: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_BODY) {
          res.destroy();
          resolve({ ok: false, problem: `the answer is larger than ${MAX_BODY} bytes` });
          return;
        }
        parts.push(chunk);
      });
      res.on('end', () => resolve({ ok: true, status: res.statusCode ?? 0, body: Buffer.concat(parts).toString('utf8') }));
      res.on('error', (error) => resolve({ ok: false, problem: error.message }));
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)));
    req.on('error', (error) => resolve({ ok: false, problem: error.message }));
    req.end();
  });
}
