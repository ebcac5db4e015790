/**
 * Reading a file from an address on a client's behalf (a video fetched from a URL, a thumbnail
 * given by URL), through the same address rules as the edge's origin fetches: loopback and private
 * addresses as the operator allows them, never link-local or edgeplane's own listeners — judged on
 * the address given and on every address a redirect leads to (at most 5).
 */
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { OriginAddresses } from '../edge/origin/addresses.js';
import { errors } from '../errors.js';

const MAX_REDIRECTS = 5;
/** No answer, or no byte, for this long ends the request. */
const IDLE_MS = 30_000;

/** The answer to a GET of `url` (redirects followed, each address judged), or an error saying why there is none. */
export async function openRemote(url: URL, headers: Record<string, string>, addresses: OriginAddresses, signal?: AbortSignal): Promise<IncomingMessage> {
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${url.protocol} addresses are not fetched`);
    const refusal = addresses.urlRefusal(url);
    if (refusal !== undefined) throw new Error(`${url.host} is ${refusal}`);
    const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
    const client = url.protocol === 'https:' ? https : http;
    const target = url;
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      const request = client.get(target, { headers, lookup: addresses.lookupFor(port), timeout: IDLE_MS, ...(signal ? { signal } : {}) }, resolve);
      request.on('timeout', () => request.destroy(new Error(`no answer from ${target.host} within ${IDLE_MS / 1000} s`)));
      request.on('error', reject);
    });
    const status = response.statusCode ?? 0;
    if (status >= 200 && status < 300) return response;
    response.resume();
    const location = response.headers.location;
    if (status >= 300 && status < 400 && location) {
      const next = new URL(location, url);
      // The client's headers (credentials, often) go to the host it named, not to one a redirect names.
      if (next.host !== url.host) headers = {};
      url = next;
      continue;
    }
    throw new Error(`${url.host} answered ${status}`);
  }
  throw new Error(`more than ${MAX_REDIRECTS} redirects`);
}

/** `address` as a URL that may be fetched, or the 400 of the request's `field` saying why not. */
export function remoteAddress(address: string, addresses: OriginAddresses, field: string): URL {
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
  return url;
}

/** A small file from `address` (at most `maxBytes`), for a request's field: a bad address is that field's 400, a failed fetch a 422. */
export async function fetchSmallFile(address: string, addresses: OriginAddresses, maxBytes: number, field: string): Promise<Buffer> {
  const url = remoteAddress(address, addresses, field);
  const failed = (why: string) => errors.unprocessable(`The file could not be fetched from ${url.host}: ${why}.`, 'video.fetch_failed');
  let response: IncomingMessage;
  try {
    response = await openRemote(url, {}, addresses);
  } catch (error) {
    throw failed(error instanceof Error ? error.message : String(error));
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      response.destroy();
      throw failed(`the file is larger than ${maxBytes} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
