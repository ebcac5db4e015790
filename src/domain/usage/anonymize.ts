/** Client addresses in the logs the planes keep (DNS query log, edge access log), anonymized as each zone asks. */
import { isIPv4, isIPv6 } from 'node:net';

export interface Anonymization {
  enabled: boolean;
  /** 0 = keep all but the last digit group (`192.0.2.0`; an IPv6 address's /64), 1 = drop the address. */
  type: number;
}

/** `dropped`: what a dropped address is written as (the DNS query log leaves it empty, the access log writes `0.0.0.0`). */
export function anonymized(address: string, { enabled, type }: Anonymization, dropped = ''): string {
  if (!enabled) return address;
  if (type === 1) return dropped;
  if (isIPv4(address)) return address.replace(/\.\d+$/, '.0');
  if (!isIPv6(address)) return dropped;
  return `${network64(address)}::`;
}

/** The first four groups of an IPv6 address (its /64), zeros written out where `::` stood for them. */
function network64(address: string): string {
  const [head = '', tail] = address.split('::') as [string, string | undefined];
  const front = head === '' ? [] : head.split(':');
  const back = tail === undefined || tail === '' ? [] : tail.split(':');
  // An embedded IPv4 tail (`::ffff:192.0.2.1`) is two groups.
  const backGroups = back.length > 0 && back[back.length - 1]!.includes('.') ? back.length + 1 : back.length;
  const groups = tail === undefined ? front : [...front, ...Array<string>(Math.max(0, 8 - front.length - backGroups)).fill('0'), ...back];
  return groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, '').toLowerCase())
    .join(':');
}
