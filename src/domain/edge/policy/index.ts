/**
 * The edge's policy: what a pull zone's access settings, URL tokens, limits and edge rules decide
 * about a request. Pure and synchronous (no I/O); the only state is the per-client limit counters.
 *
 *   admit(zone, request, now)       per-client request rate and concurrency limits
 *   onRequest(zone, request, now)   access settings → request-phase edge rules → URL token (only the rules
 *                                   for a request an edge sent through the origin shield)
 *   onResponse(zone, request, a, e) response-phase edge rules, the effects on the answer, CORS, canonical link
 *   cacheTimeFor(zone, request, a, e) the cache time the rules give an origin's answer (either phase)
 *   throttle(zone, effects)         download speed limit
 *
 * URL tokens are checked after the rules, so that a rule's Enable/DisableTokenAuthentication
 * decides for its requests; a rule's redirect or block ends the request before the token is read.
 * Country-based settings (BlockedCountries, BudgetRedirectedCountries, country triggers, token
 * countries) are not enforced: edgeplane has no location database.
 */
import type { PullZoneT } from '../../../schemas/pull-zone.js';
import type { Admission, EdgePolicy, EdgeRequest, RuleEffects, Verdict } from '../types.js';
import { CompiledZones } from './compiled-zone.js';
import { canonicalIpText, parseIp } from '../../../security/ip-list.js';
import { ClientLimits, NO_ADMISSION_NEEDED } from './limits.js';
import { shapeAnswer } from './response.js';
import { ruleLimits, runRequestRules, runResponseRules } from './rules/compile.js';
import type { MatchContext } from './rules/triggers.js';
import { KILOBYTE, PacedStream, type PacingClock, PacingSchedule, systemClock } from './throttle.js';
import { verifyToken } from './token/verify.js';

export interface EdgePolicyOptions {
  /** Port of the HTTPS listener as clients reach it, for ForceSSL redirects (default 443, left out of the URL). */
  httpsPort?: number;
  /** Random numbers in [0, 1) for RandomChance triggers (tests pass a fixed sequence). */
  random?: () => number;
  /** The clock download pacing runs on (tests pass a manual one). */
  pacingClock?: PacingClock;
  /** Clients whose request-rate state is kept per process (least recently seen forgotten first; default 100,000). */
  maxTrackedClients?: number;
}

const CONTINUE: Verdict = Object.freeze({ kind: 'continue' }) as Verdict;

const newEffects = (): RuleEffects => ({ requestHeaders: {}, responseHeaders: {} });

/**
 * What of the rules' effects still applies when the request ends in a refusal or a redirect: the
 * headers they set on the answer, nothing that would disguise the refusal (a SetStatusCode 200
 * must not turn a missing token's 403 into a 200, nor ForceDownload or a browser cache time apply to it).
 */
const ending = (effects: RuleEffects): RuleEffects => ({ requestHeaders: {}, responseHeaders: effects.responseHeaders });

export function createEdgePolicy(options: EdgePolicyOptions = {}): EdgePolicy {
  const zones = new CompiledZones({ httpsPort: options.httpsPort ?? 443 });
  const random = options.random ?? Math.random;
  const clock = options.pacingClock ?? systemClock;
  const limits = new ClientLimits(options.maxTrackedClients ?? 100_000);

  const contextOf = (request: EdgeRequest, answer?: MatchContext['answer']): MatchContext => ({
    request,
    clientIp: parseIp(request.clientIp),
    random,
    ...(answer ? { answer } : {}),
  });

  return {
    admit(zone: PullZoneT, request: EdgeRequest, now: number): Admission | Verdict {
      const compiled = zones.of(zone);
      if (compiled.unlimited) return NO_ADMISSION_NEEDED;
      const client = canonicalIpText(request.clientIp);
      const fromRules = compiled.rules.limits.length > 0 ? ruleLimits(compiled.rules.limits, contextOf(request)) : {};

      const rate = fromRules.requests ?? (zone.RequestLimit > 0 ? { perSecond: zone.RequestLimit, burst: zone.BurstSize, rule: '' } : undefined);
      if (rate && !limits.takeRequest(`${zone.Id} ${rate.rule} ${client}`, rate.perSecond, rate.burst, now)) {
        return { kind: 'refuse', status: 429, reason: 'request-rate-limit' };
      }
      const concurrency = fromRules.connections ?? (zone.ConnectionLimitPerIPCount > 0 ? { limit: zone.ConnectionLimitPerIPCount, rule: '' } : undefined);
      if (!concurrency) return NO_ADMISSION_NEEDED;
      return limits.enter(`${zone.Id} ${concurrency.rule} ${client}`, concurrency.limit) ?? { kind: 'refuse', status: 429, reason: 'connection-limit' };
    },

    onRequest(zone: PullZoneT, request: EdgeRequest, now: Date, checkedAtEdge = false): { verdict: Verdict; effects: RuleEffects } {
      const compiled = zones.of(zone);
      const effects = newEffects();
      if (compiled.openRequests) return { verdict: CONTINUE, effects };
      const ctx = contextOf(request);

      const refused = checkedAtEdge ? undefined : compiled.access?.(request, ctx.clientIp);
      if (refused) return { verdict: refused, effects };
      const ruled = runRequestRules(compiled.rules.request, effects, ctx);
      if (ruled) return { verdict: ruled, effects: ending(effects) };

      if (checkedAtEdge || !(effects.tokenAuthentication ?? zone.ZoneSecurityEnabled)) return { verdict: CONTINUE, effects };
      const token = verifyToken(request, ctx.clientIp, { key: zone.ZoneSecurityKey ?? '', includeClientIp: zone.ZoneSecurityIncludeHashRemoteIP }, now);
      if (!token.ok) return { verdict: { kind: 'refuse', status: 403, reason: token.reason }, effects: ending(effects) };
      if (token.path !== request.path) effects.rewrittenPath = token.path;
      if (token.query !== request.query) effects.rewrittenQuery = token.query;
      if (token.speedLimitKBps !== undefined) effects.rateLimitKBps = Math.min(effects.rateLimitKBps ?? token.speedLimitKBps, token.speedLimitKBps);
      return { verdict: CONTINUE, effects };
    },

    onResponse(zone: PullZoneT, request: EdgeRequest, answer: { status: number; headers: Record<string, string> }, effects: RuleEffects) {
      const compiled = zones.of(zone);
      if (compiled.rules.response.length === 0) return shapeAnswer(compiled.response, request, answer, effects);
      // Response-phase rules add to a copy: the request's own effects stay as the pipeline saw them.
      const combined: RuleEffects = { ...effects, requestHeaders: { ...effects.requestHeaders }, responseHeaders: { ...effects.responseHeaders } };
      runResponseRules(compiled.rules.response, combined, contextOf(request, answer));
      return shapeAnswer(compiled.response, request, answer, combined);
    },

    cacheTimeFor(zone: PullZoneT, request: EdgeRequest, answer: { status: number; headers: () => Record<string, string> }, effects: RuleEffects) {
      if (effects.cacheSeconds !== undefined) return effects.cacheSeconds;
      const compiled = zones.of(zone);
      if (compiled.rules.response.length === 0) return undefined;
      const combined: RuleEffects = { ...effects, requestHeaders: { ...effects.requestHeaders }, responseHeaders: { ...effects.responseHeaders } };
      runResponseRules(compiled.rules.response, combined, contextOf(request, { status: answer.status, headers: answer.headers() }));
      return combined.cacheSeconds;
    },

    throttle(zone: PullZoneT, effects?: RuleEffects) {
      const kBps = effects?.rateLimitKBps ?? zone.LimitRatePerSecond;
      if (!(kBps > 0)) return undefined;
      const freeBytes = Math.max(0, Math.floor(zone.LimitRateAfter * KILOBYTE));
      return new PacedStream(new PacingSchedule(Math.max(1, Math.floor(kBps * KILOBYTE)), freeBytes), clock);
    },
  };
}
