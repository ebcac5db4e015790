/**
 * Reads a small file from an address (a thumbnail given by URL), through the same address rules
 * as the edge's origin fetches: loopback and private addresses as the operator allows them, never
 * link-local or edgeplane's own listeners; a bounded size and time.
 */
import http from 'node:http';
import https from 'node:https';
import { errors } from '../errors.js';
import type { OriginAddresses } from '../edge/origin/addresses.js';

const TIMEOUT_MS = 15_000;

export async function fetchSmallFile(address: string, addresses: OriginAddresses, maxBytes: number, field: string): Promise<Buffer> {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw errors.validation(field, `The ${field} must be an absolute http or https address.`, 'video.url_invalid');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw errors.validation(field, `The ${field} must be an http or https address.`, 'video.url_invalid');
  const refusal = addresses.urlRefusal(url);
  if (refusal !== undefined) throw errors.validation(field, `The ${field} may not be fetched: ${refusal}.`, 'video.url_refused');
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<Buffer>((resolve, reject) => {
    const failed = (why: string) => reject(errors.unprocessable(`The file could not be fetched from ${url.host}: ${why}.`, 'video.fetch_failed'));
    const request = client.get(url, { lookup: addresses.lookupFor(port), timeout: TIMEOUT_MS }, (response) => {
      if ((response.statusCode ?? 0) >= 300) {
        response.resume();
        return failed(`the origin answered ${response.statusCode}`);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) {
          request.destroy();
          failed(`the file is larger than ${maxBytes} bytes`);
        } else chunks.push(chunk);
      });
      response.on('end', () => resolve(Buffer.concat(chunks)));
      response.on('error', (error) => failed(error.message));
    });
    request.on('timeout', () => request.destroy(new Error('no answer in time')));
    request.on('error', (error) => failed(error.message));
  });
}
