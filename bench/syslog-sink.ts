/**
 * A UDP syslog collector for the edge's logging workload, in a process of its own (so receiving
 * the lines takes nothing from the load generator): counts the datagrams it receives, and says
 * how many and on which UDP port at `GET /` of its HTTP port, the one its start-up line names.
 *
 * Run as a script: `node --import tsx bench/syslog-sink.ts`.
 */
import { createSocket } from 'node:dgram';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { type Child, startChild } from './server.js';

export function startSyslogSink(): Promise<Child> {
  return startChild('syslog-sink', ['--import', 'tsx', fileURLToPath(import.meta.url)], /syslog-sink: listening on (http:\/\/127\.0\.0\.1:\d+)/, process.env);
}

/** The sink's UDP port and the datagrams it received so far. */
export async function sinkState(sink: Child): Promise<{ udpPort: number; received: number }> {
  const res = await fetch(sink.url);
  return (await res.json()) as { udpPort: number; received: number };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  let received = 0;
  const udp = createSocket('udp4');
  udp.on('message', () => received++);
  udp.bind(0, '127.0.0.1', () => {
    const server = http.createServer((_req, res) => res.end(JSON.stringify({ udpPort: udp.address().port, received })));
    server.listen(0, '127.0.0.1', () => {
      process.stdout.write(`syslog-sink: listening on http://127.0.0.1:${(server.address() as { port: number }).port}\n`);
    });
    process.once('SIGTERM', () => process.exit(0));
  });
}
