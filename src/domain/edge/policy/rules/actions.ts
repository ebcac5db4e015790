/**
 * What each edge rule action does in edgeplane. Values that can only hold one setting (a cache
 * time, an origin, a status) take the first matching rule's, as the platform short-circuits
 * such actions; headers accumulate in rule order, a later value for the same name replacing an
 * earlier one. ActionParameter1/2 hold the inputs (a header's name and value, a number, a URL).
 *
 * Actions for features edgeplane does not have are recorded in `effects.unappliedActions`:
 * RunEdgeScript (no script runtime), OriginMagicContainers
 * (container origins come from the zone's own link), DisableWAF and the DisableShield… family
 * (no WAF or shield), RetryOrigin (origin retries follow the zone's OriginRetries settings).
 *
 * A Redirect's target and a header's value are made valid for a header after their variables are
 * filled (header-value.ts: CR, LF, NUL and non-ASCII percent-encoded), so request data never splits
 * or breaks a header; a SetRequestHeader/SetResponseHeader whose name is no header name does nothing.
 */
import type { EdgeRuleExtraActionT } from '../../../../schemas/pull-zone.js';
import type { RuleEffects, Verdict } from '../../types.js';
import { headerSafe, isHeaderName } from '../header-value.js';
import type { MatchContext } from './triggers.js';
import { compileTemplate, type Template } from './variables.js';

export type RequestAction = (effects: RuleEffects, ctx: MatchContext) => Verdict | undefined;
/** The part of an action that still makes sense once the answer is known. */
export type ResponseAction = (effects: RuleEffects, ctx: MatchContext) => void;

export interface CompiledAction {
  request: RequestAction;
  response?: ResponseAction;
  /** SetConnectionLimit: concurrent requests allowed per client IP (admit). */
  connectionLimit?: number;
  /** SetRequestsPerSecondLimit: requests per second per client IP, and the burst allowed over it (admit). */
  requestLimit?: { perSecond: number; burst: number };
}

export interface ActionOptions {
  /** Port of the HTTPS listener clients reach, for ForceSSL redirects (443 leaves it out of the URL). */
  httpsPort: number;
}

const REDIRECT_STATUSES = new Set([301, 302, 307, 308]);
const UNAPPLIED: Record<number, string> = {
  22: 'OriginMagicContainers',
  23: 'DisableWAF',
  24: 'RetryOrigin',
  27: 'DisableShieldChallenge',
  28: 'DisableShield',
  29: 'DisableShieldBotDetection',
  31: 'DisableShieldAccessLists',
  32: 'DisableShieldRateLimiting',
};

/** Actions that switch one thing on or off for the request, the first matching rule's setting winning. */
const SWITCHES = {
  8: ['tokenAuthentication', false],
  9: ['tokenAuthentication', true],
  11: ['ignoreQueryString', true],
  12: ['disableOptimizer', true],
  13: ['forceCompression', true],
  15: ['bypassPermaCache', true],
  30: ['bypassRequestSigning', true],
  33: ['requestCoalescing', true],
  34: ['requestCoalescing', false],
} as const satisfies Record<number, readonly [keyof RuleEffects, boolean]>;

const NOTHING: RequestAction = () => undefined;

/** A non-negative whole number, or undefined. */
function count(text: string): number | undefined {
  const trimmed = text.trim();
  return /^\d{1,10}$/.test(trimmed) ? Number(trimmed) : undefined;
}

function httpsUrl(ctx: MatchContext, port: number): string {
  const { host, path, query } = ctx.request;
  return `https://${host}${port === 443 ? '' : `:${port}`}${path}${query ? `?${query}` : ''}`;
}

/** A template whose result goes into a header: made valid there (header-value.ts), so request data never splits or breaks it. */
function headerTemplate(text: string): Template {
  const template = compileTemplate(text);
  return (request) => headerSafe(template(request));
}

function addTo(list: string[] | undefined, item: string): string[] {
  return list?.includes(item) ? list : [...(list ?? []), item];
}

/** Sets one field unless an earlier rule already did. */
function firstWins<K extends keyof RuleEffects>(field: K, value: RuleEffects[K] | undefined): ResponseAction {
  return (effects) => {
    if (value !== undefined && effects[field] === undefined) effects[field] = value;
  };
}

function both(action: ResponseAction): { request: RequestAction; response: ResponseAction } {
  return {
    request: (effects, ctx) => {
      action(effects, ctx);
      return undefined;
    },
    response: action,
  };
}

function requestOnly(action: ResponseAction): { request: RequestAction } {
  return {
    request: (effects, ctx) => {
      action(effects, ctx);
      return undefined;
    },
  };
}

export function compileAction(action: EdgeRuleExtraActionT, options: ActionOptions): CompiledAction {
  const p1 = action.ActionParameter1;
  const p2 = action.ActionParameter2;
  const n1 = count(p1);
  switch (action.ActionType) {
    case 0: // ForceSSL
      return {
        request: (_effects, ctx) => (ctx.request.scheme === 'http' ? { kind: 'redirect', status: 301, location: httpsUrl(ctx, options.httpsPort) } : undefined),
      };
    case 1: {
      // Redirect: the target in ActionParameter1, the status in ActionParameter2 (302 when absent).
      const target = headerTemplate(p1.trim());
      const wanted = count(p2) ?? 302;
      const status = (REDIRECT_STATUSES.has(wanted) ? wanted : 302) as 301 | 302 | 307 | 308;
      if (!p1.trim()) return { request: NOTHING };
      return {
        request: (_effects, ctx) => ({ kind: 'redirect', status, location: target(ctx.request) }),
        // On a response trigger (a 404 from the origin, say) the answer becomes the redirect.
        response: (effects, ctx) => {
          if (effects.statusCode !== undefined) return;
          effects.statusCode = status;
          effects.responseHeaders['location'] = target(ctx.request);
        },
      };
    }
    case 2: {
      const origin = compileTemplate(p1.trim());
      if (!p1.trim()) return { request: NOTHING };
      return requestOnly((effects, ctx) => {
        effects.originUrl ??= origin(ctx.request);
      });
    }
    case 3:
      // In a response-phase rule it still decides how long the answer is kept (see EdgePolicy.cacheTimeFor).
      return both(firstWins('cacheSeconds', n1));
    case 4:
      return { request: () => ({ kind: 'refuse', status: 403, reason: 'edge-rule-block' }) };
    case 5:
    case 6: {
      const name = p1.trim().toLowerCase();
      const value = headerTemplate(p2);
      // A name that is no header name could only be refused by node:http when the answer is written.
      if (!isHeaderName(name)) return { request: NOTHING };
      const field = action.ActionType === 5 ? 'responseHeaders' : 'requestHeaders';
      const set: ResponseAction = (effects, ctx) => {
        effects[field][name] = value(ctx.request);
      };
      return action.ActionType === 5 ? both(set) : requestOnly(set);
    }
    case 7:
      return both(firstWins('forceDownload', true));
    case 10: {
      // OverrideCacheTimePublic: one lifetime for the edge and for browsers (a public max-age).
      const edge = firstWins('cacheSeconds', n1);
      const browser = firstWins('browserCacheSeconds', n1);
      return {
        request: (effects, ctx) => {
          edge(effects, ctx);
          browser(effects, ctx);
          return undefined;
        },
        response: (effects, ctx) => {
          edge(effects, ctx);
          browser(effects, ctx);
        },
      };
    }
    case 14: {
      const status = n1 !== undefined && n1 >= 100 && n1 <= 599 ? n1 : undefined;
      return both(firstWins('statusCode', status));
    }
    case 16:
      return both(firstWins('browserCacheSeconds', n1));
    case 17:
      return requestOnly(firstWins('originStorageZoneId', n1 !== undefined && n1 > 0 ? n1 : undefined));
    case 18:
      return requestOnly((effects) => {
        if (n1 !== undefined && n1 > 0) effects.rateLimitKBps = Math.min(effects.rateLimitKBps ?? n1, n1);
      });
    case 19:
      return { request: NOTHING, ...(n1 !== undefined && n1 > 0 ? { connectionLimit: n1 } : {}) };
    case 20:
      return { request: NOTHING, ...(n1 !== undefined && n1 > 0 ? { requestLimit: { perSecond: n1, burst: count(p2) ?? 0 } } : {}) };
    case 25: {
      // OverrideBrowserCacheResponseHeader: ActionParameter1 is the Cache-Control value sent to clients.
      const value = headerSafe(p1.trim());
      if (!value) return { request: NOTHING };
      return both((effects) => {
        effects.responseHeaders['cache-control'] = value;
      });
    }
    case 26:
      return both((effects) => {
        effects.removeResponseHeaders = addTo(effects.removeResponseHeaders, 'cache-control');
      });
    case 37:
      return requestOnly((effects) => {
        effects.removeRequestHeaders = addTo(effects.removeRequestHeaders, 'cookie');
      });
    case 8:
    case 9:
    case 11:
    case 12:
    case 13:
    case 15:
    case 30:
    case 33:
    case 34: {
      const [field, value] = SWITCHES[action.ActionType];
      return requestOnly(firstWins(field, value));
    }
    case 21:
      // RunEdgeScript: the middleware script (ActionParameter1, its id) runs around this request's origin request.
      return requestOnly(firstWins('edgeScriptId', n1 !== undefined && n1 > 0 ? n1 : undefined));
    case 22:
    case 23:
    case 24:
    case 27:
    case 28:
    case 29:
    case 31:
    case 32: {
      const name = UNAPPLIED[action.ActionType]!;
      return requestOnly((effects) => {
        effects.unappliedActions = [...(effects.unappliedActions ?? []), name];
      });
    }
  }
}
