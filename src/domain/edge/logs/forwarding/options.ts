/** How log collectors are reached, from the configuration: the CAs TLS collectors are verified against, the addresses refused, the pace. */
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import type { Config } from '../../../../config.js';
import type { OriginAddresses } from '../../origin/addresses.js';
import type { CollectorOptions } from './collector.js';

export const FORWARDING_PACE = {
  /** Lines queued per collector; past it new lines are dropped (a collector down for long, or too slow). */
  maxQueued: 20_000,
  /** Lines reach the collector within this (the platform allows 10–30 s); short, so a busy zone's UDP bursts stay small enough for a collector's receive buffer. */
  batchMs: 50,
  retry: { minMs: 100, maxMs: 2000 },
};

/**
 * The system's CAs plus `EDGEPLANE_LOG_FORWARDING_CA`; collectors are reached as origins are
 * (EDGEPLANE_ORIGIN_PRIVATE_ADDRESSES, never edgeplane's own listeners).
 */
export function forwardingOptions(config: Pick<Config, 'logForwardingCa'>, addresses: OriginAddresses): CollectorOptions {
  return {
    ...FORWARDING_PACE,
    ca: config.logForwardingCa === undefined ? rootCertificates : [...rootCertificates, readCa(config.logForwardingCa)],
    lookupFor: (port) => addresses.lookupFor(port),
    refusal: (address, port) => addresses.refusal(address, port),
  };
}

function readCa(path: string): string {
  let pem: string;
  try {
    pem = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`EDGEPLANE_LOG_FORWARDING_CA: cannot read ${path}: ${(error as Error).message}`);
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) throw new Error(`EDGEPLANE_LOG_FORWARDING_CA: ${path} holds no PEM certificate.`);
  return pem;
}
