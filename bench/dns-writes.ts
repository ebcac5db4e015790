/**
 * The DNS plane under writes: while dnsperf queries the 10,000-record zone, a writer adds A
 * records through the API at 500 per second, and two checkers ask the plane as a client would:
 * - every 10th record written must be answered, with its address, soon after its 201; how soon
 *   is measured, and one not answered within VISIBLE_WITHIN_MS counts as not visible;
 * - a record of the big zone, picked every 10 ms, must get its stored answer: one that does not
 *   (wrong data, an error, no answer within a second) counts as wrong.
 * The records go either to zones of their own (as the add-dns-record workload does), or into the
 * queried zone itself: each write then changes the zone dnsperf asks, whose answers the plane
 * must make again (it grows by 500 records a second: what a write costs must not follow its size).
 */
import type { RecordType } from 'dns-packet';
import { answerData, DnsProbe } from './dns-probe.js';
import { ipv4 } from './dns-zone.js';
import type { DnsperfResult } from './dnsperf.js';
import type { DnsWritesRun } from './dns-report.js';
import type { Client } from './seed.js';

const WRITES_PER_SECOND = 500;
const WRITE_ZONES = 8;
/** Writes in flight at most: past it the writer falls behind (and says so) rather than piling up. */
const MAX_IN_FLIGHT = 64;
const VISIBLE_WITHIN_MS = 5000;
const CHECK_EVERY_MS = 10;

export interface WritesOptions {
  client: Client;
  /** The zone to write into (the queried one); without it, WRITE_ZONES zones of their own. */
  into?: { id: number; domain: string };
  dnsPort: number;
  seconds: number;
  /** Records of the big zone and the answer each must get. */
  expected: { name: string; type: RecordType; data: string }[];
  /** The query load, started with the writes and awaited with them. */
  underLoad: () => Promise<DnsperfResult>;
}

export async function measureWrites(options: WritesOptions): Promise<DnsWritesRun> {
  const { client, dnsPort, seconds } = options;
  const tag = `w${Date.now().toString(36)}`;
  const zones: { id: number; domain: string }[] = options.into ? [options.into] : [];
  for (let i = 0; zones.length < WRITE_ZONES && !options.into; i++) {
    const domain = `${tag}-${i}.bench-writes.test`;
    zones.push({ id: (await client.call<{ Id: number }>('POST', '/dnszone', 201, { Domain: domain })).Id, domain });
  }
  const probe = new DnsProbe(dnsPort);
  const visibleMs: number[] = [];
  let notVisible = 0;
  let checked = 0;
  let wrong = 0;
  let written = 0;
  let writeErrors = 0;
  let inFlight = 0;
  let behind = 0;
  const pending: Promise<void>[] = [];

  const waitVisible = async (name: string, address: string) => {
    const since = performance.now();
    while (performance.now() - since < VISIBLE_WITHIN_MS) {
      if (answerData(await probe.ask(name, 'A', 500), 'A')?.includes(address)) {
        visibleMs.push(performance.now() - since);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    notVisible++;
  };

  const write = async (n: number) => {
    const zone = zones[n % zones.length]!;
    const address = ipv4(n);
    const name = `${tag}-r${n}`;
    inFlight++;
    try {
      await client.call('PUT', `/dnszone/${zone.id}/records`, 201, { Type: 0, Name: name, Value: address, Ttl: 60 });
      written++;
    } catch {
      writeErrors++;
      return;
    } finally {
      inFlight--;
    }
    if (n % 10 === 0) await waitVisible(`${name}.${zone.domain}`, address);
  };

  const check = async () => {
    const record = options.expected[Math.floor(Math.random() * options.expected.length)]!;
    const data = answerData(await probe.ask(record.name, record.type), record.type);
    checked++;
    if (!data?.includes(record.data)) wrong++;
  };

  const load = options.underLoad();
  const started = performance.now();
  let issued = 0;
  await new Promise<void>((resolve) => {
    const writer = setInterval(() => {
      const elapsed = (performance.now() - started) / 1000;
      if (elapsed >= seconds) {
        clearInterval(writer);
        clearInterval(checker);
        resolve();
        return;
      }
      // On schedule from the start, so a slow tick is made up on the next.
      for (const due = Math.floor(elapsed * WRITES_PER_SECOND); issued < due; issued++) {
        if (inFlight >= MAX_IN_FLIGHT) behind++;
        else pending.push(write(issued));
      }
    }, 10);
    const checker = setInterval(() => pending.push(check()), CHECK_EVERY_MS);
  });
  const writeSeconds = (performance.now() - started) / 1000;
  await Promise.all(pending);
  const dns = await load;
  probe.close();
  visibleMs.sort((a, b) => a - b);
  const at = (q: number) => visibleMs[Math.min(visibleMs.length - 1, Math.ceil(q * visibleMs.length) - 1)] ?? 0;
  return {
    into: options.into ? 'the queried zone' : `${WRITE_ZONES} zones of their own`,
    targetWritesPerSecond: WRITES_PER_SECOND,
    writesPerSecond: written / writeSeconds,
    writeErrors,
    writesSkipped: behind,
    dns,
    checked,
    wrong,
    visibleChecked: visibleMs.length + notVisible,
    notVisible,
    visibleMs: { p50: at(0.5), p99: at(0.99), max: visibleMs.at(-1) ?? 0 },
  };
}
