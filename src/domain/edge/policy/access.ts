/**
 * The zone's access settings, compiled once per zone into one check. Each refusal is a 403 whose
 * reason the access log shows:
 *
 * - `blocked-ip`: the client address is in BlockedIps (addresses and CIDR blocks, IPv4 and IPv6).
 * - `post-blocked`: BlockPostRequests and the method is POST (only POST: PUT, PATCH and DELETE
 *   pass, as the setting's name and the specification say).
 * - `root-path-blocked`: BlockRootPathAccess and the path is `/`.
 * - `no-referrer`: BlockNoneReferrer and the request has no (or an empty) Referer.
 * - `referrer-blocked`: the Referer's host matches BlockedReferrers.
 * - `referrer-not-allowed`: AllowedReferrers is not empty and the Referer's host matches none of it.
 *   A request without a Referer is not refused by AllowedReferrers (that is BlockNoneReferrer's job).
 *
 * Referrer entries are host names with the platform's wildcard: `*.example.com` matches every
 * subdomain but not `example.com` itself; the zone's own hostnames are not allowed implicitly.
 * The Referer's host is read as a browser reads the URL (referrer.ts), for both lists; a Referer
 * that names no host matches no entry (AllowedReferrers refuses it).
 */
import type { PullZoneT } from '../../../schemas/pull-zone.js';
import type { EdgeRequest, Verdict } from '../types.js';
import { IpList, type ParsedIp } from '../../../security/ip-list.js';
import { compileAny, type Matcher } from './patterns.js';
import { referrerHostOf } from './referrer.js';

export type AccessCheck = (request: EdgeRequest, clientIp: ParsedIp | undefined) => Verdict | undefined;

/** Why a Referer is refused. */
export type ReferrerRefusal = 'no-referrer' | 'referrer-blocked' | 'referrer-not-allowed';
/** A Referer header's verdict: the refusal, or undefined when it passes. */
export type ReferrerCheck = (referer: string | undefined) => ReferrerRefusal | undefined;

const refuse = (reason: string): Verdict => ({ kind: 'refuse', status: 403, reason });

const nonEmpty = (list: readonly string[] | null) => (list ?? []).map((s) => s.trim()).filter((s) => s.length > 0);

/**
 * The referrer lists alone (a pull zone's, or a video library's for its embed page), compiled
 * once; undefined when they restrict nothing.
 */
export function compileReferrerCheck(rules: Pick<PullZoneT, 'AllowedReferrers' | 'BlockedReferrers' | 'BlockNoneReferrer'>): ReferrerCheck | undefined {
  const allowed = nonEmpty(rules.AllowedReferrers);
  const blocked = nonEmpty(rules.BlockedReferrers);
  const allowedMatch: Matcher | undefined = allowed.length > 0 ? compileAny(allowed) : undefined;
  const blockedMatch: Matcher | undefined = blocked.length > 0 ? compileAny(blocked) : undefined;
  const blockNone = rules.BlockNoneReferrer;
  if (!blockNone && allowedMatch === undefined && blockedMatch === undefined) return undefined;
  return (referer) => {
    const host = referrerHostOf(referer);
    if (host === undefined) return blockNone ? 'no-referrer' : undefined;
    if (blockedMatch?.(host)) return 'referrer-blocked';
    if (allowedMatch && !allowedMatch(host)) return 'referrer-not-allowed';
    return undefined;
  };
}

/** Undefined when the zone restricts nothing, so that open zones pay nothing for these settings. */
export function compileAccess(zone: PullZoneT): AccessCheck | undefined {
  const blockedIps = new IpList(nonEmpty(zone.BlockedIps));
  const referrer = compileReferrerCheck(zone);
  const { BlockPostRequests: blockPost, BlockRootPathAccess: blockRoot } = zone;
  if (blockedIps.size === 0 && !blockPost && !blockRoot && !referrer) return undefined;

  return (request, clientIp) => {
    if (blockedIps.size > 0 && blockedIps.contains(clientIp)) return refuse('blocked-ip');
    if (blockPost && request.method === 'POST') return refuse('post-blocked');
    if (blockRoot && request.path === '/') return refuse('root-path-blocked');
    const refusal = referrer?.(request.headers['referer']);
    return refusal === undefined ? undefined : refuse(refusal);
  };
}
