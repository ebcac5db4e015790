/**
 * A bucket's CORS configuration: the `CORSConfiguration` document S3 takes and answers, and how S3
 * applies it — a preflight (`OPTIONS`, unsigned, as browsers send it) is answered from the first
 * rule that allows the origin, the method and every requested header, or refused with 403; an
 * actual request that carries an `Origin` gets the matching rule's headers, on its answer and on
 * its errors alike, so a browser can read both.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CorsRule } from '../../../domain/s3/types.js';
import { S3Error, s3Errors } from '../errors.js';
import { element, parseXml, rootElement, textOf } from '../xml.js';

const MAX_RULES = 100;
const METHODS = new Set(['GET', 'PUT', 'HEAD', 'POST', 'DELETE']);

export function parseCors(body: Buffer): CorsRule[] {
  const doc = parseXml(body, 'CORSConfiguration');
  const entries = doc.CORSRule;
  if (!Array.isArray(entries) || entries.length === 0) throw s3Errors.malformedXml();
  if (entries.length > MAX_RULES) throw s3Errors.invalidRequest(`A CORS configuration can have at most ${MAX_RULES} rules.`);
  return entries.map((entry: unknown) => {
    if (typeof entry !== 'object' || entry === null) throw s3Errors.malformedXml();
    const e = entry as Record<string, unknown>;
    const list = (name: string) => {
      const values = e[name] ?? [];
      if (!Array.isArray(values)) throw s3Errors.malformedXml();
      return values.map(textOf);
    };
    const rule: CorsRule = {
      allowedMethods: list('AllowedMethod'),
      allowedOrigins: list('AllowedOrigin'),
      allowedHeaders: list('AllowedHeader'),
      exposeHeaders: list('ExposeHeader'),
    };
    if (rule.allowedMethods.length === 0 || rule.allowedOrigins.length === 0) throw s3Errors.malformedXml();
    for (const method of rule.allowedMethods)
      if (!METHODS.has(method)) throw s3Errors.invalidRequest(`Found unsupported HTTP method in CORS config. Unsupported method is ${method}`);
    for (const origin of rule.allowedOrigins)
      if (wildcards(origin) > 1) throw s3Errors.invalidRequest(`AllowedOrigin "${origin}" can not have more than one wildcard.`);
    for (const name of rule.allowedHeaders)
      if (wildcards(name) > 1) throw s3Errors.invalidRequest(`AllowedHeader "${name}" can not have more than one wildcard.`);
    if (e.ID !== undefined) {
      rule.id = textOf(e.ID);
      if (rule.id.length > 255) throw s3Errors.invalidArgument('The ID of a CORS rule can be at most 255 characters long.', 'ID', rule.id);
    }
    if (e.MaxAgeSeconds !== undefined) {
      const text = textOf(e.MaxAgeSeconds).trim();
      if (!/^\d{1,10}$/.test(text)) throw s3Errors.malformedXml();
      rule.maxAgeSeconds = Number(text);
    }
    return rule;
  });
}

export function corsXml(rules: readonly CorsRule[]): string {
  return rootElement(
    'CORSConfiguration',
    rules.map((r) =>
      element('CORSRule', [
        element('ID', r.id),
        ...r.allowedHeaders.map((h) => element('AllowedHeader', h)),
        ...r.allowedMethods.map((m) => element('AllowedMethod', m)),
        ...r.allowedOrigins.map((o) => element('AllowedOrigin', o)),
        ...r.exposeHeaders.map((h) => element('ExposeHeader', h)),
        element('MaxAgeSeconds', r.maxAgeSeconds),
      ]),
    ),
  );
}

const wildcards = (text: string) => text.split('*').length - 1;

/** `*` matches any run of characters; at most one per pattern (parseCors makes sure). */
function matches(pattern: string, value: string, ignoreCase: boolean): boolean {
  const [p, v] = ignoreCase ? [pattern.toLowerCase(), value.toLowerCase()] : [pattern, value];
  const star = p.indexOf('*');
  if (star < 0) return p === v;
  const head = p.slice(0, star);
  const tail = p.slice(star + 1);
  return v.length >= head.length + tail.length && v.startsWith(head) && v.endsWith(tail);
}

/** The first rule that allows this origin, method and every one of these request headers. */
export function matchingRule(rules: readonly CorsRule[], origin: string, method: string, requestHeaders: readonly string[] = []): CorsRule | undefined {
  return rules.find(
    (rule) =>
      rule.allowedMethods.includes(method) &&
      rule.allowedOrigins.some((allowed) => matches(allowed, origin, false)) &&
      requestHeaders.every((name) => rule.allowedHeaders.some((allowed) => matches(allowed, name, true))),
  );
}

const VARY = 'Origin, Access-Control-Request-Headers, Access-Control-Request-Method';

function ruleHeaders(rule: CorsRule, origin: string): Record<string, string> {
  const anyOrigin = rule.allowedOrigins.includes('*');
  const headers: Record<string, string> = {
    'access-control-allow-origin': anyOrigin ? '*' : origin,
    'access-control-allow-methods': rule.allowedMethods.join(', '),
    vary: VARY,
  };
  if (!anyOrigin) headers['access-control-allow-credentials'] = 'true';
  if (rule.exposeHeaders.length > 0) headers['access-control-expose-headers'] = rule.exposeHeaders.join(', ');
  if (rule.maxAgeSeconds !== undefined) headers['access-control-max-age'] = String(rule.maxAgeSeconds);
  return headers;
}

/** Sets the CORS headers an actual request (one with an `Origin`) earns, when a rule allows it. */
export function applyCors(req: IncomingMessage, res: ServerResponse, rules: readonly CorsRule[] | undefined): void {
  const origin = req.headers.origin;
  if (origin === undefined || rules === undefined) return;
  const rule = matchingRule(rules, origin, req.method ?? 'GET');
  if (rule) for (const [name, value] of Object.entries(ruleHeaders(rule, origin))) res.setHeader(name, value);
}

const forbidden = (message: string) => new S3Error('AccessForbidden', message, 403);

/** Answers a preflight request for a bucket whose CORS rules are `rules` (undefined: none configured). */
export function answerPreflight(req: IncomingMessage, res: ServerResponse, rules: readonly CorsRule[] | undefined): void {
  const origin = req.headers.origin;
  if (origin === undefined) throw new S3Error('BadRequest', 'Insufficient information. Origin request header needed.', 400);
  const method = req.headers['access-control-request-method'];
  if (typeof method !== 'string' || !METHODS.has(method)) throw new S3Error('BadRequest', `Invalid Access-Control-Request-Method: ${method ?? 'null'}`, 400);
  if (rules === undefined) throw forbidden('CORSResponse: CORS is not enabled for this bucket.');
  const requested = (req.headers['access-control-request-headers'] ?? '')
    .split(',')
    .map((h) => h.trim())
    .filter((h) => h !== '');
  const rule = matchingRule(rules, origin, method, requested);
  if (!rule)
    throw forbidden(
      "CORSResponse: This CORS request is not allowed. This is usually because the evaluation of Origin, request method / Access-Control-Request-Method or Access-Control-Request-Headers are not whitelisted by the resource's CORS spec.",
    );
  const headers = ruleHeaders(rule, origin);
  if (requested.length > 0) headers['access-control-allow-headers'] = requested.join(', ');
  res.writeHead(200, { ...headers, 'content-length': 0 });
  res.end();
}
