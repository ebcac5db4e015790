/**
 * The console's downloads, streamed: a service worker (scope /console/download/) that answers a
 * one-time address with the file API's answer as it arrives, marked as an attachment, so the
 * browser writes the file to disk as it comes and never holds it whole. The file API wants its
 * key in a header, which a link cannot send: the page hands the worker the file's address and
 * key by message (never in an address), and opens /console/download/<random id> in a hidden
 * frame; the id serves once, within a minute.
 */

interface Ticket {
  url: string;
  key: string;
  name: string;
  port: MessagePort;
  expires: number;
}

interface FetchEventLike extends Event {
  request: Request;
  respondWith(answer: Promise<Response>): void;
}

interface WorkerScope {
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEventLike) => void): void;
  addEventListener(type: 'install' | 'activate', listener: (event: Event & { waitUntil(p: Promise<unknown>): void }) => void): void;
  skipWaiting(): Promise<void>;
  clients: { claim(): Promise<void> };
  location: Location;
}

const scope = self as unknown as WorkerScope;
const tickets = new Map<string, Ticket>();
const TICKET_LIFE_MS = 60_000;

scope.addEventListener('install', (event) => event.waitUntil(scope.skipWaiting()));
scope.addEventListener('activate', (event) => event.waitUntil(scope.clients.claim()));

scope.addEventListener('message', (event) => {
  const { id, url, key, name } = event.data as { id: string; url: string; key: string; name: string };
  const port = event.ports[0];
  if (!port || typeof id !== 'string' || typeof url !== 'string') return;
  const now = Date.now();
  for (const [old, ticket] of tickets) if (ticket.expires < now) tickets.delete(old);
  tickets.set(id, { url, key, name, port, expires: now + TICKET_LIFE_MS });
  port.postMessage({ ready: true });
});

/** `filename*` carries any name (RFC 6266, RFC 8187); `filename` a plain fallback. */
const disposition = (name: string) => `attachment; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`;

scope.addEventListener('fetch', (event) => {
  const path = new URL(event.request.url).pathname;
  const prefix = '/console/download/';
  if (!path.startsWith(prefix)) return;
  const id = path.slice(prefix.length);
  const ticket = tickets.get(id);
  tickets.delete(id);
  if (!ticket || ticket.expires < Date.now()) {
    event.respondWith(Promise.resolve(new Response('This download has expired: start it again from the console.', { status: 410 })));
    return;
  }
  event.respondWith(
    (async () => {
      try {
        const upstream = await fetch(ticket.url, { headers: { AccessKey: ticket.key } });
        if (!upstream.ok || !upstream.body) {
          const text = await upstream.text();
          ticket.port.postMessage({ ok: false, status: upstream.status, body: text });
          return new Response(text, { status: upstream.status, headers: { 'content-type': upstream.headers.get('content-type') ?? 'text/plain' } });
        }
        ticket.port.postMessage({ ok: true, status: upstream.status });
        const headers = new Headers({ 'content-type': 'application/octet-stream', 'content-disposition': disposition(ticket.name) });
        const length = upstream.headers.get('content-length');
        if (length) headers.set('content-length', length);
        return new Response(upstream.body, { status: 200, headers });
      } catch (error) {
        ticket.port.postMessage({ ok: false, status: 0, body: error instanceof Error ? error.message : String(error) });
        return new Response('The file API could not be reached.', { status: 502 });
      }
    })(),
  );
});
