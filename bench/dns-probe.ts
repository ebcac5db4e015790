/** A small stub resolver for the benchmark's checks: one UDP socket, answers matched by ID. */
import dgram from 'node:dgram';
import { type DecodedPacket, decode, encode, type RecordType } from 'dns-packet';

export class DnsProbe {
  private readonly socket = dgram.createSocket('udp4');
  private readonly pending = new Map<number, (answer: DecodedPacket | null) => void>();
  private nextId = 1;

  constructor(private readonly port: number) {
    this.socket.on('message', (message) => {
      let answer: DecodedPacket;
      try {
        answer = decode(message);
      } catch {
        return;
      }
      this.pending.get(answer.id ?? -1)?.(answer);
    });
  }

  /** The answer, or null when none came within `timeoutMs`. */
  ask(name: string, type: RecordType, timeoutMs = 1000): Promise<DecodedPacket | null> {
    const id = this.nextId;
    this.nextId = (this.nextId % 65535) + 1;
    return new Promise((resolve) => {
      const timer = setTimeout(() => finish(null), timeoutMs);
      const finish = (answer: DecodedPacket | null) => {
        clearTimeout(timer);
        this.pending.delete(id);
        resolve(answer);
      };
      this.pending.set(id, finish);
      this.socket.send(encode({ id, type: 'query', questions: [{ name, type }] }), this.port, '127.0.0.1');
    });
  }

  close(): void {
    this.socket.close();
  }
}

/** The data of the answer's records of the asked type, as text (MX: `priority exchange`; TXT: the joined strings). */
export function answerData(answer: DecodedPacket | null, type: RecordType): string[] | null {
  if (answer === null || ((answer.flags ?? 0) & 0xf) !== 0) return null;
  return (answer.answers ?? [])
    .filter((record) => record.type === type)
    .map((record) => {
      const data = (record as { data: unknown }).data;
      if (type === 'MX') {
        const mx = data as { preference: number; exchange: string };
        return `${mx.preference} ${mx.exchange}`;
      }
      if (Array.isArray(data)) return data.map((part) => String(part)).join('');
      return String(data);
    });
}
