/**
 * A bucket policy: the JSON document S3 takes, checked when it is put (a statement this evaluator
 * could not apply faithfully is refused then, never ignored later), and applied to every request:
 * an explicit Deny refuses even the zone's own signature; an Allow lets unsigned (anonymous)
 * requests do what it names. Principals: `*` is everyone; any other principal names an AWS
 * identity, and the only one here is the zone's own key, written as its name or as
 * `arn:aws:iam::<zone name>:root`.
 */
import { IpList, type Prefix, parseIp, parsePrefix } from '../../../security/ip-list.js';
import { S3Error } from '../errors.js';

export const MAX_POLICY_BYTES = 20 * 1024;

/** What a request asks, as the policy's conditions see it. */
export interface PolicyRequest {
  action: string;
  /** `arn:aws:s3:::bucket` or `arn:aws:s3:::bucket/key`. */
  resource: string;
  /** The zone's own signature, or none (anonymous). */
  signed: boolean;
  sourceIp: string;
  secure: boolean;
  headers: { referer?: string | undefined; 'user-agent'?: string | undefined };
  /** `s3:prefix` of a listing. */
  prefix?: string | undefined;
}

type Condition = (request: PolicyRequest) => boolean;

interface Statement {
  effect: 'Allow' | 'Deny';
  /** Matches anyone; otherwise only the zone's own signature. */
  anyone: boolean;
  /** Whether `Principal` names the zone at all (else the statement applies to no one here). */
  namesZone: boolean;
  actions: RegExp[];
  notAction: boolean;
  resources: RegExp[];
  notResource: boolean;
  conditions: Condition[];
  /** Limits who it applies to by where they come from (for the policy's "public" status). */
  restrictsSource: boolean;
}

export interface CompiledPolicy {
  statements: Statement[];
}

const malformed = (message: string) => new S3Error('MalformedPolicy', message, 400);

function asList(value: unknown, what: string): string[] {
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || list.length === 0 || !list.every((v) => typeof v === 'string'))
    throw malformed(`${what} must be a string or a non-empty list of strings`);
  return list as string[];
}

/** IAM's wildcards: `*` any run of characters, `?` any one. */
function wildcard(pattern: string, ignoreCase: boolean): RegExp {
  const body = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${body}$`, ignoreCase ? 'is' : 's');
}

const CONDITION_KEYS: Record<string, (r: PolicyRequest) => string | undefined> = {
  'aws:sourceip': (r) => r.sourceIp,
  'aws:securetransport': (r) => String(r.secure),
  'aws:referer': (r) => r.headers.referer,
  'aws:useragent': (r) => r.headers['user-agent'],
  's3:prefix': (r) => r.prefix,
};

/** An address or CIDR block as a policy gives it (no spaces around), or MalformedPolicy. */
function sourcePrefix(value: string): Prefix {
  const prefix = value === value.trim() ? parsePrefix(value) : undefined;
  if (!prefix) throw malformed(`Invalid IP address or range: ${value}`);
  return prefix;
}

function ipList(values: string[]): IpList {
  for (const value of values) sourcePrefix(value);
  return new IpList(values);
}

function condition(operator: string, key: string, values: string[]): Condition {
  const read = CONDITION_KEYS[key.toLowerCase()];
  if (!read)
    throw malformed(
      `Policy has an invalid condition key: ${key} (edgeplane evaluates aws:SourceIp, aws:SecureTransport, aws:Referer, aws:UserAgent and s3:prefix)`,
    );
  const ifExists = operator.endsWith('IfExists');
  const base = ifExists ? operator.slice(0, -'IfExists'.length) : operator;
  const test = ((): ((value: string) => boolean) | undefined => {
    switch (base) {
      case 'StringEquals':
        return (v) => values.includes(v);
      case 'StringNotEquals':
        return (v) => !values.includes(v);
      case 'StringEqualsIgnoreCase':
        return (v) => values.some((x) => x.toLowerCase() === v.toLowerCase());
      case 'StringNotEqualsIgnoreCase':
        return (v) => !values.some((x) => x.toLowerCase() === v.toLowerCase());
      case 'StringLike': {
        const patterns = values.map((x) => wildcard(x, false));
        return (v) => patterns.some((p) => p.test(v));
      }
      case 'StringNotLike': {
        const patterns = values.map((x) => wildcard(x, false));
        return (v) => !patterns.some((p) => p.test(v));
      }
      case 'IpAddress': {
        const list = ipList(values);
        return (v) => list.contains(parseIp(v));
      }
      case 'NotIpAddress': {
        const list = ipList(values);
        return (v) => !list.contains(parseIp(v));
      }
      case 'Bool':
        return (v) => values.some((x) => x.toLowerCase() === v);
      default:
        return undefined;
    }
  })();
  if (!test) throw malformed(`Invalid Condition type: ${operator} (edgeplane evaluates the String…, IpAddress, NotIpAddress and Bool operators)`);
  const negative = base.startsWith('StringNot') || base === 'NotIpAddress';
  // A key the request lacks: a negated operator holds (nothing to differ from), others do not, as in IAM.
  return (request) => {
    const value = read(request);
    if (value === undefined) return ifExists || negative;
    return test(value);
  };
}

/**
 * Whether a condition limits a statement to a set of networks, S3's mark of a policy that is not
 * public: `IpAddress` on aws:SourceIp (NotIpAddress lets in everyone else), and no range broader
 * than /8 in IPv4 or /32 in IPv6 — a range as wide as 0.0.0.0/1 limits nothing (edgeplane's line).
 */
function limitsSource(operator: string, key: string, values: string[]): boolean {
  if (key.toLowerCase() !== 'aws:sourceip' || (operator !== 'IpAddress' && operator !== 'IpAddressIfExists')) return false;
  return values.every((value) => {
    const prefix = sourcePrefix(value);
    return prefix.bits >= ('v4' in prefix.ip ? 8 : 32);
  });
}

function principalOf(raw: unknown, zoneName: string): { anyone: boolean; namesZone: boolean } {
  if (raw === '*') return { anyone: true, namesZone: true };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw malformed('Invalid principal in policy');
  const aws = (raw as Record<string, unknown>).AWS;
  const others = Object.keys(raw).filter((k) => k !== 'AWS' && k !== 'CanonicalUser');
  if (others.length > 0) throw malformed(`Invalid principal in policy: ${others[0]}`);
  const names = [...(aws === undefined ? [] : asList(aws, 'Principal.AWS'))];
  const canonical = (raw as Record<string, unknown>).CanonicalUser;
  if (canonical !== undefined) names.push(...asList(canonical, 'Principal.CanonicalUser'));
  if (names.includes('*')) return { anyone: true, namesZone: true };
  const zone = zoneName.toLowerCase();
  return { anyone: false, namesZone: names.some((n) => n.toLowerCase() === zone || n.toLowerCase() === `arn:aws:iam::${zone}:root`) };
}

/** Checks a policy document for this bucket and compiles it; MalformedPolicy names what is wrong. */
export function compilePolicy(text: string, bucket: string, zoneName: string): CompiledPolicy {
  if (Buffer.byteLength(text) > MAX_POLICY_BYTES)
    throw new S3Error('PolicyTooLarge', `Policy exceeds the maximum allowed document size of ${MAX_POLICY_BYTES} bytes.`, 400);
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw malformed("Policies must be valid JSON and the first byte must be '{'");
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw malformed("Policies must be valid JSON and the first byte must be '{'");
  const { Version, Statement } = doc as { Version?: unknown; Statement?: unknown };
  if (Version !== undefined && Version !== '2012-10-17' && Version !== '2008-10-17') throw malformed('The policy must contain a valid version string');
  const list = Array.isArray(Statement) ? Statement : Statement === undefined ? [] : [Statement];
  if (list.length === 0) throw malformed('Missing required field Statement');
  const bucketArn = `arn:aws:s3:::${bucket}`;
  return {
    statements: list.map((raw: unknown): Statement => {
      if (typeof raw !== 'object' || raw === null) throw malformed('Statement must be an object');
      const s = raw as Record<string, unknown>;
      if (s.Effect !== 'Allow' && s.Effect !== 'Deny') throw malformed('Invalid effect: the Effect of a statement is Allow or Deny');
      if (s.NotPrincipal !== undefined) throw malformed('Invalid principal in policy: NotPrincipal is not supported');
      if (s.Principal === undefined) throw malformed('Missing required field Principal');
      if ((s.Action === undefined) === (s.NotAction === undefined)) throw malformed('A statement has exactly one of Action and NotAction');
      if ((s.Resource === undefined) === (s.NotResource === undefined)) throw malformed('A statement has exactly one of Resource and NotResource');
      const actions = asList(s.Action ?? s.NotAction, 'Action');
      for (const action of actions) if (action !== '*' && !/^s3:[A-Za-z*?]+$/.test(action)) throw malformed(`Policy has invalid action: ${action}`);
      const resources = asList(s.Resource ?? s.NotResource, 'Resource');
      for (const resource of resources) {
        const own = resource === '*' || resource === bucketArn || resource.startsWith(`${bucketArn}/`) || wildcard(resource, false).test(bucketArn);
        if (!own) throw malformed(`Policy has invalid resource: ${resource} (a bucket policy names its own bucket, ${bucketArn})`);
      }
      const conditions: Condition[] = [];
      let restrictsSource = false;
      if (s.Condition !== undefined) {
        if (typeof s.Condition !== 'object' || s.Condition === null) throw malformed('Condition must be an object');
        for (const [operator, block] of Object.entries(s.Condition)) {
          if (typeof block !== 'object' || block === null) throw malformed(`Condition ${operator} must be an object`);
          for (const [key, values] of Object.entries(block)) {
            conditions.push(condition(operator, key, asList(typeof values === 'boolean' ? String(values) : values, `Condition ${operator} ${key}`)));
            if (limitsSource(operator, key, asList(values, 'aws:SourceIp'))) restrictsSource = true;
          }
        }
      }
      return {
        effect: s.Effect,
        ...principalOf(s.Principal, zoneName),
        actions: actions.map((a) => wildcard(a, true)),
        notAction: s.NotAction !== undefined,
        resources: resources.map((r) => wildcard(r, false)),
        notResource: s.NotResource !== undefined,
        conditions,
        restrictsSource,
      };
    }),
  };
}

function applies(statement: Statement, request: PolicyRequest): boolean {
  if (!statement.namesZone || (!statement.anyone && !request.signed)) return false;
  if (statement.actions.some((a) => a.test(request.action)) === statement.notAction) return false;
  if (statement.resources.some((r) => r.test(request.resource)) === statement.notResource) return false;
  return statement.conditions.every((c) => c(request));
}

/** `deny` when a Deny statement applies, else `allow` when an Allow does, else `none`. */
export function evaluatePolicy(policy: CompiledPolicy, request: PolicyRequest): 'allow' | 'deny' | 'none' {
  let allowed = false;
  for (const statement of policy.statements) {
    if (!applies(statement, request)) continue;
    if (statement.effect === 'Deny') return 'deny';
    allowed = true;
  }
  return allowed ? 'allow' : 'none';
}

/** Whether the policy grants anyone at all something without limiting where they come from (S3's "public"). */
export function isPublic(policy: CompiledPolicy): boolean {
  return policy.statements.some((s) => s.effect === 'Allow' && s.anyone && !s.restrictsSource);
}
