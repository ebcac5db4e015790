/**
 * A stand-in for the domain's authority, with exactly the answers the transport tests need: a
 * small one, TXT answers of chosen sizes, a slow one, one that throws, REFUSED for the rest.
 */
import type { Answer, DecodedPacket, Packet } from 'dns-packet';
import type { Answered, Authority, QueryContext } from '../../../src/domain/dns/serving/types.js';
import type { CacheableAnswered } from '../../../src/planes/dns/answer-cache.js';

const AA = 1 << 10;
const RD = 1 << 8;
const REFUSED = 5;
const SERVFAIL_NAME = 'throws.example.test';

/** TXT records of 200 bytes each, `count` of them: 5 (about 1 KiB) fits in 1232 bytes but not in 512; 15 fits in neither. */
const txt = (name: string, count: number): Answer[] =>
  Array.from({ length: count }, (_, i) => ({ name, type: 'TXT', ttl: 60, class: 'IN', data: `${String(i).padStart(3, '0')}${'x'.repeat(196)}` }));

export const ANSWERS: Record<string, Answer[]> = {
  'example.test': [{ name: 'example.test', type: 'A', ttl: 300, class: 'IN', data: '192.0.2.1' }],
  'mid.example.test': txt('mid.example.test', 5),
  'big.example.test': txt('big.example.test', 15),
  /** Never cacheable: stands for an answer chosen by chance or by who asks. */
  'random.example.test': [{ name: 'random.example.test', type: 'A', ttl: 300, class: 'IN', data: '192.0.2.2' }],
};

export class FakeAuthority implements Authority {
  /** Every query answered, with its context, in order. */
  readonly seen: { name: string; context: QueryContext }[] = [];
  slowMs = 200;
  /** Present when the authority lets the plane cache its answers: bump it to change them. */
  generation?: number;

  constructor(options: { cacheable?: boolean } = {}) {
    if (options.cacheable) this.generation = 0;
  }

  setZone(): void {}
  removeZone(): void {}

  answer(query: Packet, context: QueryContext): Answered | Promise<Answered> {
    const question = query.questions![0]!;
    this.seen.push({ name: question.name, context });
    if (question.name === SERVFAIL_NAME) throw new Error('the fake authority was asked to fail');
    if (question.name === 'slow.example.test') {
      const answered = respond(query as DecodedPacket, AA, ANSWERS['example.test']!);
      return new Promise((resolve) => setTimeout(() => resolve(answered), this.slowMs));
    }
    const answers = ANSWERS[question.name.toLowerCase()];
    const answered = answers === undefined ? respond(query as DecodedPacket, REFUSED, []) : respond(query as DecodedPacket, AA, answers);
    if (this.generation === undefined || question.name === 'random.example.test') return answered;
    const cacheable: CacheableAnswered = { ...answered, cacheable: true };
    return cacheable;
  }
}

function respond(query: DecodedPacket, flags: number, answers: Answer[]): Answered {
  return { response: { id: query.id, type: 'response', flags: flags | ((query.flags ?? 0) & RD), questions: query.questions, answers } };
}
