/**
 * Edge rule triggers, compiled once per zone into predicates over a request (and, for the
 * response-phase ones, the answer). What each trigger type compares its patterns with:
 *
 * | Type | value |
 * |---|---|
 * | Url (0) | a pattern starting with `/` (or `pattern:/`, `pattern:^/`): the path; any other: `scheme://host/path` (never the query) |
 * | RequestHeader (1) | the request header named by Parameter1 |
 * | ResponseHeader (2) | the answer header named by Parameter1 (response phase) |
 * | UrlExtension (3) | the file extension, patterns written `jpg`, `.jpg` or `*.jpg` |
 * | CountryCode (4), CountryStateCode (11) | never match: edgeplane has no location database |
 * | RemoteIP (5) | the client address; a pattern that is an address or CIDR block matches by prefix |
 * | UrlQueryString (6) | the query parameter named by Parameter1, or the whole query when Parameter1 is empty |
 * | RandomChance (7) | matches with the probability (percent) in the first pattern, or Parameter1 |
 * | StatusCode (8) | the answer's status (response phase) |
 * | RequestMethod (9) | the method |
 * | CookieValue (10) | the cookie named by Parameter1 |
 * | OriginRetryAttemptCount (12), OriginConnectionError (13) | never match: the policy does not see origin attempts |
 *
 * PatternMatchingType combines the patterns of one trigger: MatchAny (0) one matches, MatchAll (1)
 * all match, MatchNone (2) none matches. A value that is absent (a header not sent) matches no
 * pattern. A trigger without patterns never matches.
 *
 * A trigger edgeplane cannot decide (the country ones, the origin-attempt ones) is neither true nor
 * false, and a rule runs only when its other triggers decide it without that one: under MatchAny
 * when another trigger matches, under MatchAll and MatchNone never. So a rule meant for some
 * countries does not run for everyone, and a rule meant to exclude some countries does not either.
 */
import type { EdgeRuleTriggerT } from '../../../../schemas/pull-zone.js';
import type { EdgeRequest } from '../../types.js';
import { canonicalIpText, IpList, type ParsedIp, parsePrefix } from '../../../../security/ip-list.js';
import { compilePattern, type Matcher } from '../patterns.js';
import { cookieOf, extensionOf, fullUrlOf, queryParameterOf } from '../url-parts.js';

export interface MatchContext {
  request: EdgeRequest;
  clientIp: ParsedIp | undefined;
  /** The answer, in the response phase. */
  answer?: { status: number; headers: Record<string, string> };
  random(): number;
}

export type Predicate = (ctx: MatchContext) => boolean;

/** Triggers that can only be decided once the answer is known. */
export const RESPONSE_TRIGGERS: ReadonlySet<number> = new Set([2, 8]);

const NEVER: Predicate = () => false;

/** The one trigger predicate that stands for "cannot be decided here" (combineTriggers looks for it). */
export const UNDECIDABLE: Predicate = () => false;

/** A header of the answer, whatever the letter case of its name there. */
export function headerOf(headers: Record<string, string>, lowerName: string): string | undefined {
  const direct = headers[lowerName];
  if (direct !== undefined) return direct;
  for (const name in headers) if (name.toLowerCase() === lowerName) return headers[name];
  return undefined;
}

/** One pattern against one value read from the context; an absent value matches nothing. */
function patternOn(read: (ctx: MatchContext) => string | undefined, pattern: string): Predicate {
  const match = compilePattern(pattern);
  return (ctx) => {
    const value = read(ctx);
    return value !== undefined && match(value);
  };
}

/** `/img/*`, `pattern:/img/`, `pattern:^/img/`: written for the path, not for the whole URL. */
const isPathPattern = (pattern: string) => /^(pattern:\^?)?\//.test(pattern);

function urlPattern(pattern: string): Predicate {
  const match: Matcher = compilePattern(pattern);
  if (isPathPattern(pattern)) return (ctx) => match(ctx.request.path);
  return (ctx) => match(fullUrlOf(ctx.request));
}

function remoteIpPattern(pattern: string): Predicate {
  if (parsePrefix(pattern)) {
    const list = new IpList([pattern]);
    return (ctx) => list.contains(ctx.clientIp);
  }
  return patternOn((ctx) => canonicalIpText(ctx.request.clientIp), pattern);
}

function randomChance(trigger: EdgeRuleTriggerT): Predicate {
  const percent = Number.parseFloat(trigger.PatternMatches[0] ?? trigger.Parameter1);
  if (!Number.isFinite(percent) || percent <= 0) return NEVER;
  return (ctx) => ctx.random() * 100 < percent;
}

/** One predicate per pattern of the trigger; undefined when the trigger type never matches. */
function patternPredicates(trigger: EdgeRuleTriggerT): Predicate[] | undefined {
  const patterns = trigger.PatternMatches.filter((p) => p.length > 0);
  const name = trigger.Parameter1.trim().toLowerCase();
  switch (trigger.Type) {
    case 0:
      return patterns.map(urlPattern);
    case 1:
      return name ? patterns.map((p) => patternOn((ctx) => ctx.request.headers[name], p)) : undefined;
    case 2:
      return name ? patterns.map((p) => patternOn((ctx) => (ctx.answer ? headerOf(ctx.answer.headers, name) : undefined), p)) : undefined;
    case 3:
      return patterns.map((p) => patternOn((ctx) => extensionOf(ctx.request.path), p.replace(/^\*?\./, '')));
    case 5:
      return patterns.map(remoteIpPattern);
    case 6: {
      const parameter = trigger.Parameter1.trim();
      const read = parameter ? (ctx: MatchContext) => queryParameterOf(ctx.request.query, parameter) : (ctx: MatchContext) => ctx.request.query;
      return patterns.map((p) => patternOn(read, p));
    }
    case 7:
      return [randomChance(trigger)];
    case 8:
      return patterns.map((p) => patternOn((ctx) => (ctx.answer ? String(ctx.answer.status) : undefined), p));
    case 9:
      return patterns.map((p) => patternOn((ctx) => ctx.request.method, p));
    case 10: {
      const cookie = trigger.Parameter1.trim();
      return cookie ? patterns.map((p) => patternOn((ctx) => cookieOf(ctx.request, cookie), p)) : undefined;
    }
    case 4:
    case 11:
    case 12:
    case 13:
      return undefined;
  }
}

const UNDECIDABLE_TYPES: ReadonlySet<number> = new Set([4, 11, 12, 13]);

export function compileTrigger(trigger: EdgeRuleTriggerT): Predicate {
  if (UNDECIDABLE_TYPES.has(trigger.Type)) return UNDECIDABLE;
  const predicates = patternPredicates(trigger);
  if (!predicates || predicates.length === 0) return NEVER;
  return matching(predicates, trigger.PatternMatchingType);
}

/** TriggerMatchingType over the rule's triggers: MatchAny, MatchAll, MatchNone; a rule without triggers never runs. */
export function combineTriggers(all: Predicate[], matchingType: 0 | 1 | 2): Predicate {
  const triggers = all.filter((t) => t !== UNDECIDABLE);
  if (triggers.length < all.length && matchingType !== 0) return NEVER;
  if (triggers.length === 0) return NEVER;
  return matching(triggers, matchingType);
}

/** MatchAny, MatchAll, MatchNone: a trigger's over its patterns, a rule's over its triggers. */
function matching(predicates: Predicate[], type: 0 | 1 | 2): Predicate {
  switch (type) {
    case 0:
      return (ctx) => predicates.some((p) => p(ctx));
    case 1:
      return (ctx) => predicates.every((p) => p(ctx));
    case 2:
      return (ctx) => !predicates.some((p) => p(ctx));
  }
}
