/**
 * EDNS Client Subnet (RFC 7871): the part of a client's address a resolver may attach to its query.
 * A Script record's DNS script is told it (`ednsIP`, as on the platform) and may answer by it, so
 * its answer says which prefix it was made for (SCOPE PREFIX-LENGTH: the whole prefix given, the
 * script's use of it being unknown) and resolvers keep it for that subnet only; every other answer
 * was made for any client (scope 0). A query without a well-formed option gets none back.
 */
import type { OptAnswer, PacketOpt } from 'dns-packet';

const ECS = 8;
const IPV4 = 1;
const IPV6 = 2;

export interface ClientSubnet {
  family: typeof IPV4 | typeof IPV6;
  sourcePrefixLength: number;
  /** The address as the resolver sent it (its bits past the prefix are zero). */
  ip: string;
}

/** The query's client subnet, when its OPT carries one this server can read. */
export function clientSubnetOf(opt: OptAnswer | undefined): ClientSubnet | undefined {
  for (const option of opt?.options ?? []) {
    if (Number(option.code) !== ECS || !('ip' in option) || typeof option.ip !== 'string') continue;
    const { family, sourcePrefixLength } = option;
    if (family !== IPV4 && family !== IPV6) return undefined;
    if (sourcePrefixLength === undefined || sourcePrefixLength > (family === IPV4 ? 32 : 128)) return undefined;
    return { family, sourcePrefixLength, ip: option.ip };
  }
  return undefined;
}

/** The option an answer carries back: the query's subnet, with the prefix the answer holds for. */
export function clientSubnetEcho(subnet: ClientSubnet, scopePrefixLength: number): PacketOpt {
  return { code: ECS, family: subnet.family, sourcePrefixLength: subnet.sourcePrefixLength, scopePrefixLength, ip: subnet.ip } as PacketOpt;
}
