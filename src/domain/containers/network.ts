/**
 * Generated network facts of container endpoints: public host names and IP addresses. The emulator
 * runs no containers, so these only have to look real and stay stable while the endpoint exists.
 * Addresses come from private (10/8) and documentation (RFC 5737) ranges so that a client that
 * tries to connect reaches nothing on the internet.
 */
import { randomInt } from 'node:crypto';
import { DEFAULT_CONTAINER_REGION } from '../reference-data/container-regions.js';

export interface IpAddress {
  address: string;
  region: string;
}

/** Region used when the application names none. */
export const DEFAULT_REGION = DEFAULT_CONTAINER_REGION;
const SLUG_FALLBACK = 'endpoint';
const HOST_SUFFIX_LENGTH = 8;

/** Lower-case DNS label from a display name: `My API!` → `my-api`. */
export function slugOf(displayName: string): string {
  const slug = displayName
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return slug || SLUG_FALLBACK;
}

/** `<slug-of-displayName>-<short endpoint id>.<domain>`; the id part keeps hosts unique. */
export function publicHostFor(displayName: string, endpointId: string, domain: string): string {
  return `${slugOf(displayName)}-${endpointId.slice(0, HOST_SUFFIX_LENGTH)}.${domain}`;
}

const internalAddress = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
/** Address of the (imaginary) node a pod runs on. */
export const nodeAddress = internalAddress;
const publicAddress = () => `198.51.100.${randomInt(1, 255)}`;
const anycastAddress = () => `203.0.113.${randomInt(1, 255)}`;

/** One address per region, keeping the address of every region that already had one. */
function perRegion(regions: readonly string[], previous: readonly IpAddress[] | null | undefined, make: () => string): IpAddress[] {
  return regions.map((region) => previous?.find((p) => p.region === region) ?? { address: make(), region });
}

export const internalAddresses = (regions: readonly string[], previous?: readonly IpAddress[] | null) => perRegion(regions, previous, internalAddress);

export const publicAddresses = (regions: readonly string[], previous?: readonly IpAddress[] | null) => perRegion(regions, previous, publicAddress);

/**
 * An anycast endpoint has one address, announced from every region: the one its ports really
 * listen on when containers run (`listening`), else the one it had, else one drawn.
 */
export function anycastAddresses(regions: readonly string[], previous?: readonly IpAddress[] | null, listening?: string): IpAddress[] {
  const address = listening ?? previous?.[0]?.address ?? anycastAddress();
  return regions.map((region) => ({ address, region }));
}
