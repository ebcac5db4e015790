/** Reachability probes for DNS monitors: bounded in time, never throwing. */
import { request } from 'node:http';
import { connect } from 'node:net';

const TIMEOUT_MS = 3_000;

export function probe(kind: 'tcp' | 'http', host: string, port: number): Promise<boolean> {
  if (!host) return Promise.resolve(false);
  return kind === 'tcp' ? tcp(host, port) : http(host, port);
}

/** Whether a TCP connection to `host:port` opens within `timeoutMs` (the container probes' check too). */
export function tcpOpens(host: string, port: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: timeoutMs });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => done(true));
    socket.once('timeout', () => done(false));
    socket.once('error', () => done(false));
  });
}

const tcp = (host: string, port: number) => tcpOpens(host, port, TIMEOUT_MS);

function http(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request({ host, port, path: '/', method: 'GET', timeout: TIMEOUT_MS }, (res) => {
      res.resume();
      resolve((res.statusCode ?? 500) < 500);
    });
    req.once('timeout', () => req.destroy());
    req.once('error', () => resolve(false));
    req.end();
  });
}
