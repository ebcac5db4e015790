/**
 * The DNS plane of a running server: loads every zone into the authority, then listens, and counts
 * what each zone answers (statistics, and the query log of zones whose logging is on).
 */
import type { Services } from '../../domain/services.js';
import type { RunningPlane } from '../plane.js';
import { type DnsPlaneOptions, listenDns } from './listen.js';

const RCODES = ['NOERROR', 'FORMERR', 'SERVFAIL', 'NXDOMAIN', 'NOTIMP', 'REFUSED'];

export async function startDnsPlane(services: Services, host: string, port: number, options: Omit<DnsPlaneOptions, 'onAnswered'> = {}): Promise<RunningPlane> {
  await services.servedZones.start();
  const { dnsStatistics: statistics, dnsQueryLog: queryLog } = services;
  return listenDns(services.dnsAuthority, host, port, {
    ...options,
    onAnswered: (answered, context, query) => {
      const zone = answered.zone;
      const question = query.questions?.[0];
      if (!zone || !question) return;
      statistics.answered(zone.id, String(question.type), answered.smart === true);
      if (!zone.logging) return;
      queryLog.add(
        zone.id,
        {
          Time: new Date().toISOString(),
          ClientIp: context.address,
          Name: question.name,
          Type: String(question.type),
          ResponseCode: RCODES[(answered.response.flags ?? 0) & 0xf] ?? String((answered.response.flags ?? 0) & 0xf),
          Transport: context.transport,
        },
        zone.logAnonymization ?? { enabled: false, type: 0 },
      );
    },
  });
}
