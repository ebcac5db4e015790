/**
 * Closing a connection whose request body is left unread (a request refused before its body: a
 * bad signature, a read-only key's upload) as Apache and nginx close one: the answer, then this
 * side's FIN, then whatever the client still sends is read and thrown away until it stops or
 * LINGER_MS pass, and only then the socket is destroyed. Destroyed at once, as Node does after an
 * answer with `Connection: close`, the kernel answers the client's next bytes with a reset, and a
 * client still sending a large body (without `Expect: 100-continue`) fails on a broken pipe
 * before it reads the answer.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

const LINGER_MS = 2000;

/** Answers with `Connection: close`, and closes lingering once the answer is sent. */
export function closeLingering(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('connection', 'close');
  const socket = req.socket as Socket & { destroySoon?: () => void };
  // Node's http server ends a `Connection: close` exchange with `socket.destroySoon()`.
  socket.destroySoon = () => linger(socket);
}

function linger(socket: Socket): void {
  if (socket.destroyed) return;
  socket.destroySoon = () => undefined;
  // The http server's sockets are half-open capable: ending ours leaves the client's side readable.
  socket.end();
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  socket.once('end', () => socket.destroy());
  socket.resume();
}
