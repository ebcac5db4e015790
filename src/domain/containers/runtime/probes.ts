/**
 * One check of a container's probe, from the host to the container's published port: an HTTP GET
 * whose status must be the expected one (any 2xx or 3xx when none is named, as Kubernetes does), or
 * a TCP connection that opens. A gRPC probe is checked as a TCP connection to its port: edgeplane
 * speaks no gRPC health protocol.
 */
import { request, STATUS_CODES } from 'node:http';
import type { ContainerProbeT } from '../../../schemas/containers.js';
import { tcpOpens } from '../../dns/probe.js';

const squashed = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');
/** `ok` → 200, `serviceUnavailable` → 503: the schema's names are Node's reason phrases, camel-cased. */
const STATUS_BY_NAME = new Map(Object.entries(STATUS_CODES).map(([code, text]) => [squashed(text ?? ''), Number(code)]));

export function expectedStatus(probe: ContainerProbeT): number | undefined {
  const name = probe.httpGet?.response?.expectedStatusCode;
  return name === undefined ? undefined : STATUS_BY_NAME.get(squashed(name));
}

/** Whether the probe passes against `127.0.0.1:hostPort`, within `timeoutMs`. */
export function checkProbe(probe: ContainerProbeT | undefined, hostPort: number, timeoutMs: number): Promise<boolean> {
  if (probe?.httpGet) {
    const path = probe.httpGet.request?.path || '/';
    const expected = expectedStatus(probe);
    return httpCheck(hostPort, path.startsWith('/') ? path : `/${path}`, timeoutMs, (status) =>
      expected === undefined ? status >= 200 && status < 400 : status === expected,
    );
  }
  return tcpCheck(hostPort, timeoutMs);
}

export const tcpCheck = (port: number, timeoutMs: number) => tcpOpens('127.0.0.1', port, timeoutMs);

function httpCheck(port: number, path: string, timeoutMs: number, passes: (status: number) => boolean): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: 'GET', timeout: timeoutMs, agent: false, headers: { 'user-agent': 'edgeplane-probe' } },
      (res) => {
        res.resume();
        resolve(passes(res.statusCode ?? 0));
      },
    );
    req.once('timeout', () => req.destroy());
    req.once('error', () => resolve(false));
    req.end();
  });
}
