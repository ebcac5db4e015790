/**
 * The admit step: whether the zone serves this request now, and how. In order, the first that
 * answers ends the request: the zone's state (disabled or suspended: 403), the hostname's ForceSSL
 * over HTTP (301 to https), the zone's DDoS protection (a challenge, 429; flood.ts), the per-client
 * limits (429, 503), then the zone's access settings, request-phase edge rules and URL token
 * (src/domain/edge/policy/). Their effects shape the steps after: a path and query with the URL
 * token taken out, a cache time, another origin, headers.
 * A request another edge instance sent through the origin shield was admitted there: only the
 * zone's state and its edge rules apply to it here.
 */
import { NO_ADMISSION_NEEDED } from '../../domain/edge/policy/limits.js';
import type { Admission, EdgePolicy, EdgeRequest, RuleEffects, Verdict } from '../../domain/edge/types.js';
import type { DdosGuard } from '../../domain/edge/ddos/guard.js';
import { floodAnswer } from './flood.js';
import type { Admitted, Routed, Synth } from './types.js';

export type Admitting = { kind: 'admitted'; admitted: Admitted } | { kind: 'synth'; admitted: Admitted; synth: Synth };

export interface AdmitDeps {
  policy: EdgePolicy;
  /** The port clients reach the HTTPS listener on, for ForceSSL redirects (443 is left out of the URL). */
  httpsPort: () => number;
  /** The zones' DDoS protection (ShieldDDosProtection…). */
  ddos?: DdosGuard | undefined;
}

const NO_EFFECTS: RuleEffects = Object.freeze({ requestHeaders: {}, responseHeaders: {} }) as RuleEffects;

export function admit(deps: AdmitDeps, routed: Routed): Admitting {
  const { request } = routed;
  const zone = routed.routed.zone;
  if (!zone.Enabled || zone.Suspended) {
    const reason = zone.Suspended ? 'The pull zone is suspended.' : 'The pull zone is disabled.';
    return refused(routed, { kind: 'page', status: 403, reason });
  }
  // Through the origin shield, the edge that sent the request applied ForceSSL, the limits, the access rules and the token.
  const shielded = routed.shielded;
  if (routed.forceSsl && request.scheme === 'http' && !shielded) {
    return refused(routed, { kind: 'redirect', status: 301, location: httpsUrl(request, deps.httpsPort()) });
  }
  const flood = !shielded && deps.ddos && floodAnswer(deps.ddos, zone, request);
  if (flood) return refused(routed, flood);

  const admission = shielded ? NO_ADMISSION_NEEDED : deps.policy.admit(zone, request, Date.now());
  if (isVerdict(admission) && admission.kind !== 'continue') return refused(routed, synthOf(admission));
  const { verdict, effects } = deps.policy.onRequest(zone, request, new Date(), shielded);
  const admitted = admittedAs(routed, isVerdict(admission) ? NO_ADMISSION_NEEDED : admission, effects);
  if (verdict.kind !== 'continue') return { kind: 'synth', admitted, synth: synthOf(verdict) };
  return { kind: 'admitted', admitted };
}

/** Refused before the policy let the request in: nothing to release, no rule's effects. */
function refused(routed: Routed, synth: Synth): Admitting {
  return { kind: 'synth', admitted: admittedAs(routed, NO_ADMISSION_NEEDED, NO_EFFECTS), synth };
}

/** One shape for every Admitted (the steps after read it on every request). */
function admittedAs(routed: Routed, admission: Admission, effects: RuleEffects): Admitted {
  const { request } = routed;
  return {
    request,
    clientBody: routed.clientBody,
    routed: routed.routed,
    forceSsl: routed.forceSsl,
    requestId: routed.requestId,
    arrived: routed.arrived,
    shielded: routed.shielded,
    admission,
    effects,
    path: effects.rewrittenPath ?? request.path,
    query: effects.rewrittenQuery ?? request.query,
  };
}

function synthOf(verdict: Exclude<Verdict, { kind: 'continue' }>): Synth {
  if (verdict.kind === 'redirect') return verdict;
  return { kind: 'page', status: verdict.status, reason: refusalText(verdict.status, verdict.reason) };
}

function refusalText(status: number, reason: string): string {
  if (status === 429 || status === 503) return 'Too many requests from your address; try again shortly.';
  return `The request was refused (${reason}).`;
}

const isVerdict = (value: ReturnType<EdgePolicy['admit']>): value is Verdict => (value as Verdict).kind !== undefined;

function httpsUrl(request: EdgeRequest, port: number): string {
  const authority = port === 443 ? request.host : `${request.host.includes(':') ? `[${request.host}]` : request.host}:${port}`;
  return `https://${authority}${request.path}${request.query === '' ? '' : `?${request.query}`}`;
}
