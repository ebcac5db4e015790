/**
 * A node:http2 client for the edge's TLS listener: one session (one TLS connection, ALPN `h2`) on
 * which requests run as concurrent streams, each with the `:authority` it names.
 *
 *   const session = await h2Connect(edge.tlsPort!, zone.host);
 *   const res = await h2Request(session, zone.host, '/a.txt', { range: 'bytes=0-3' });
 *   res.status, res.headers['cdn-cache'], res.text
 *   session.close();
 */
import http2, { type ClientHttp2Session, type IncomingHttpHeaders } from 'node:http2';

export interface H2Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  text: string;
}

/** A session to the listener on 127.0.0.1, presenting `servername` (SNI); its certificate is not checked. */
export function h2Connect(port: number, servername: string): Promise<ClientHttp2Session> {
  return new Promise((resolve, reject) => {
    const session = http2.connect(`https://127.0.0.1:${port}`, { servername, rejectUnauthorized: false });
    session.once('connect', () => {
      session.off('error', reject);
      resolve(session);
    });
    session.once('error', reject);
  });
}

export function h2Request(
  session: ClientHttp2Session,
  authority: string,
  path: string,
  headers: Record<string, string> = {},
  options: { method?: string; body?: string | Buffer } = {},
): Promise<H2Answer> {
  return new Promise((resolve, reject) => {
    const stream = session.request(
      { ':method': options.method ?? 'GET', ':path': path, ':authority': authority, ...headers },
      { endStream: options.body === undefined },
    );
    let head: IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    stream.once('response', (h) => {
      head = h;
    });
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.once('end', () => {
      const flat: Record<string, string> = {};
      for (const [name, value] of Object.entries(head))
        if (value !== undefined && !name.startsWith(':')) flat[name] = Array.isArray(value) ? value.join(', ') : String(value);
      const body = Buffer.concat(chunks);
      resolve({ status: Number(head[':status']), headers: flat, body, text: body.toString('utf8') });
    });
    stream.once('error', reject);
    if (options.body !== undefined) stream.end(options.body);
  });
}
