/** Client addresses in the logs the planes keep (DNS query log, edge access log), anonymized as each zone asks. */
import { isIPv4 } from 'node:net';

export interface Anonymization {
  enabled: boolean;
  /** 0 = keep all but the last digit group (`192.0.2.0`), 1 = drop the address. */
  type: number;
}

export function anonymized(address: string, { enabled, type }: Anonymization): string {
  if (!enabled) return address;
  if (type === 1) return '';
  if (isIPv4(address)) return address.replace(/\.\d+$/, '.0');
  // IPv6: keep the first three groups (a /48), as far as the address spells them out.
  const groups = address.split(':');
  return `${groups.slice(0, 3).join(':')}::`;
}
