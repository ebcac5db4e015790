/**
 * The DNS plane of a running server: loads every zone into the authority, then listens, and counts
 * what each zone answers (statistics, and the query log of zones whose logging is on).
 */
import type { Services } from '../../domain/services.js';
import type { RunningPlane } from '../plane.js';
import { type DnsPlaneOptions, listenDns } from './listen.js';

const RCODES = ['NOERROR', 'FORMERR', 'SERVFAIL', 'NXDOMAIN', 'NOTIMP', 'REFUSED'];

export async function startDnsPlane(services: Services, host: string, port: number, options: Omit<DnsPlaneOptions, 'tallyOf'> = {}): Promise<RunningPlane> {
  await services.servedZones.start();
  const { dnsStatistics: statistics, dnsQueryLog: queryLog } = services;
  return listenDns(services.dnsAuthority, host, port, {
    ...options,
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
  });
}
