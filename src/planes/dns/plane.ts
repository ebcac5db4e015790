/**
 * The DNS plane of a running server: loads every zone into the authority, then listens, and counts
 * what each zone answers (statistics, and the query log of zones whose logging is on).
 */
import type { Services } from '../../domain/services.js';
import type { RunningPlane } from '../plane.js';
import { refreshSignatures } from '../../domain/dns/transfer/zone-transfers.js';
import { parseSecondaries, parseTsigKeys } from '../../schemas/dns-secondaries.js';
import { type DnsPlaneOptions, listenDns } from './listen.js';
import { Notifier, type NotifyOptions } from './transfer/notify.js';
import { TransferServer } from './transfer/serve-transfer.js';

/** How often signed zones are checked for signatures their secondaries should get anew (ZoneTransfers.refreshSignatures). */
const RESIGN_CHECK_MS = 3600_000;

const RCODES = ['NOERROR', 'FORMERR', 'SERVFAIL', 'NXDOMAIN', 'NOTIMP', 'REFUSED'];

export interface DnsPlaneStartOptions extends Omit<DnsPlaneOptions, 'tallyOf' | 'transfers'> {
  /** Zone transfers and NOTIFY: the settings as configured (`EDGEPLANE_DNS_SECONDARIES`, `EDGEPLANE_DNS_TSIG_KEYS`). */
  secondaries?: string;
  tsigKeys?: string;
  /** NOTIFY timings (transfer/notify.ts); tests shorten them. */
  notify?: Pick<NotifyOptions, 'delayMs' | 'retryMs' | 'attempts'>;
}

export async function startDnsPlane(services: Services, host: string, port: number, options: DnsPlaneStartOptions = {}): Promise<RunningPlane> {
  const { secondaries: secondariesText, tsigKeys, notify, ...planeOptions } = options;
  await services.servedZones.start();
  const { dnsStatistics: statistics, dnsQueryLog: queryLog } = services;
  const secondaries = parseSecondaries(secondariesText);
  const keys = parseTsigKeys(tsigKeys);
  const transfers = secondaries.length > 0 ? new TransferServer({ secondaries, keys, transfers: services.dnsTransfers }) : undefined;
  const notifier =
    secondaries.length > 0 ? new Notifier({ secondaries, key: keys[0], transfers: services.dnsTransfers, logError: options.logError, ...notify }) : undefined;
  const plane = await listenDns(services.dnsAuthority, host, port, {
    ...planeOptions,
    transfers,
    tallyOf: (answered, query) => {
      const zone = answered.zone;
      const question = query.questions?.[0];
      if (!zone || !question) return undefined;
      const type = String(question.type);
      const counted = statistics.tally(zone.id, type, answered.smart === true);
      if (!zone.logging) return counted;
      // A zone's settings are part of its version: an answer cached under it is dropped when they change.
      const rcode = (answered.response.flags ?? 0) & 0xf;
      const anonymization = zone.logAnonymization ?? { enabled: false, type: 0 };
      return {
        count: (address, transport) => {
          counted.count();
          queryLog.add(
            zone.id,
            {
              Time: new Date().toISOString(),
              ClientIp: address,
              Name: question.name,
              Type: type,
              ResponseCode: RCODES[rcode] ?? String(rcode),
              Transport: transport,
            },
            anonymization,
          );
        },
      };
    },
  }).catch((error: unknown) => {
    notifier?.close();
    throw error;
  });
  if (!notifier) return plane;
  const resigning = setInterval(() => void refreshSignatures(services.dnsTransfers, options.logError ?? (() => {})), RESIGN_CHECK_MS);
  resigning.unref();
  const stop = () => {
    clearInterval(resigning);
    notifier.close();
  };
  return {
    ...plane,
    close: async () => {
      stop();
      await plane.close();
    },
    forceClose: () => {
      stop();
      plane.forceClose();
    },
  };
}
