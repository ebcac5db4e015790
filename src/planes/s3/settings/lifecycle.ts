/**
 * A bucket's lifecycle configuration (`?lifecycle`): the `LifecycleConfiguration` document S3
 * takes, checked as S3 checks it (with its error codes and messages), and answered back in the
 * form it was given (`<Filter>` or the legacy top-level `<Prefix>`). Expiration and the abort of
 * incomplete multipart uploads are applied by the lifecycle sweep (domain/s3/lifecycle-sweep.ts).
 * Transitions are refused: every object here stays in the one STANDARD storage class.
 * NoncurrentVersionExpiration is kept and answered back, and never has anything to remove, as
 * versioning is never enabled here.
 */
import { randomUUID } from 'node:crypto';
import type { LifecycleFilter, LifecycleRule, Tag } from '../../../domain/s3/types.js';
import { S3Error, s3Errors } from '../errors.js';
import { element, parseXml, rootElement, textOf } from '../xml.js';

const MAX_RULES = 1000;
const MAX_ID = 255;
const MAX_PREFIX = 1024;
/** S3's bound on the object size filters (1,000 TiB). */
const MAX_SIZE = 1_099_511_627_776_000;

const RULE_CHILDREN = new Set([
  'ID',
  'Prefix',
  'Filter',
  'Status',
  'Expiration',
  'Transition',
  'NoncurrentVersionTransition',
  'NoncurrentVersionExpiration',
  'AbortIncompleteMultipartUpload',
]);
const FILTER_CHILDREN = new Set(['Prefix', 'Tag', 'ObjectSizeGreaterThan', 'ObjectSizeLessThan', 'And']);
const AND_CHILDREN = new Set(['Prefix', 'Tag', 'ObjectSizeGreaterThan', 'ObjectSizeLessThan']);
const EXPIRATION_CHILDREN = new Set(['Days', 'Date', 'ExpiredObjectDeleteMarker']);

/** MalformedXML, S3's code for a document its schema refuses, with what was wrong said after S3's message. */
function malformed(what: string): S3Error {
  const error = s3Errors.malformedXml();
  return new S3Error(error.code, `${error.message}: ${what}`, error.status);
}

const invalidRequest = (message: string) => s3Errors.invalidRequest(message);

type Node = Record<string, unknown>;

/** An element holding elements: `<X/>` and `<X></X>` parse as '' and hold none. */
function container(value: unknown, name: string, allowed: Set<string>): Node {
  if (typeof value === 'string' && value.trim() === '') return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw malformed(`<${name}> must hold elements`);
  const node: Node = {};
  for (const [child, content] of Object.entries(value)) {
    // The indentation between elements of a document written for people.
    if (child === '#text' && textOf(content).trim() === '') continue;
    if (!allowed.has(child)) throw malformed(`<${name}> does not take <${child === '#text' ? 'text' : child}>`);
    node[child] = content;
  }
  return node;
}

/** The element's text, refusing a repeated element where S3 takes one. */
function single(node: Node, name: string, parent: string): string | undefined {
  const value = node[name];
  if (value === undefined) return undefined;
  if (Array.isArray(value)) throw malformed(`<${parent}> takes one <${name}>`);
  if (typeof value === 'object' && value !== null) throw malformed(`<${name}> must be text`);
  return textOf(value);
}

/** An xsd:int as S3's schema has it: anything else is not the schema's. */
function integer(text: string, name: string): number {
  const trimmed = text.trim();
  if (!/^[+-]?\d+$/.test(trimmed)) throw malformed(`<${name}> must be an integer`);
  const value = Number(trimmed);
  if (!Number.isSafeInteger(value)) throw malformed(`<${name}> is out of range`);
  return value;
}

function positive(text: string, name: string, action: string): number {
  const value = integer(text, name);
  if (value <= 0 || value > 2_147_483_647) throw s3Errors.invalidArgument(`'${name}' for ${action} action must be a positive integer`, name, text.trim());
  return value;
}

function boolean(text: string, name: string): boolean {
  const trimmed = text.trim();
  if (trimmed === 'true') return true;
  if (trimmed === 'false') return false;
  throw malformed(`<${name}> must be true or false`);
}

function prefixOf(text: string): string {
  if (text.length > MAX_PREFIX) throw s3Errors.invalidArgument(`The prefix may have at most ${MAX_PREFIX} characters.`, 'Prefix', text.slice(0, 64));
  return text;
}

function tagsOf(value: unknown, parent: string): Tag[] {
  if (value === undefined) return [];
  const tags = (value as unknown[]).map((raw) => {
    const tag = container(raw, 'Tag', new Set(['Key', 'Value']));
    const key = single(tag, 'Key', 'Tag');
    if (key === undefined) throw malformed(`a <Tag> in <${parent}> has no <Key>`);
    const tagValue = single(tag, 'Value', 'Tag') ?? '';
    if (key.length < 1 || key.length > 128) throw invalidRequest("A Tag's Key must be a length between 1 and 128.");
    if (tagValue.length > 256) throw invalidRequest("A Tag's Value must be a length between 0 and 256.");
    return { key, value: tagValue };
  });
  if (new Set(tags.map((t) => t.key)).size !== tags.length) throw invalidRequest('Duplicate Tag Keys are not allowed.');
  return tags;
}

function sizeBound(text: string | undefined, name: 'ObjectSizeGreaterThan' | 'ObjectSizeLessThan'): number | undefined {
  if (text === undefined) return undefined;
  const value = integer(text, name);
  const min = name === 'ObjectSizeGreaterThan' ? 0 : 1;
  if (value < min || value > MAX_SIZE) throw invalidRequest(`'${name}' should be between ${min} and ${MAX_SIZE}.`);
  return value;
}

function conditions(node: Node, parent: string): Omit<LifecycleFilter, 'form'> {
  const prefix = single(node, 'Prefix', parent);
  const filter: Omit<LifecycleFilter, 'form'> = { prefix: prefix === undefined ? '' : prefixOf(prefix), tags: tagsOf(node.Tag, parent) };
  const greater = sizeBound(single(node, 'ObjectSizeGreaterThan', parent), 'ObjectSizeGreaterThan');
  const less = sizeBound(single(node, 'ObjectSizeLessThan', parent), 'ObjectSizeLessThan');
  if (greater !== undefined) filter.sizeGreaterThan = greater;
  if (less !== undefined) filter.sizeLessThan = less;
  if (greater !== undefined && less !== undefined && greater >= less)
    throw invalidRequest("'ObjectSizeLessThan' has to be a value greater than 'ObjectSizeGreaterThan'.");
  return filter;
}

function filterOf(raw: unknown): LifecycleFilter {
  const node = container(raw, 'Filter', FILTER_CHILDREN);
  const given = Object.keys(node);
  if (given.length === 0) return { prefix: '', tags: [], form: 'empty' };
  const tagCount = Array.isArray(node.Tag) ? node.Tag.length : 0;
  if (given.length > 1 || tagCount > 1) throw malformed('<Filter> takes one condition; several go inside <And>');
  if (node.And === undefined) return conditions(node, 'Filter');
  const and = container(node.And, 'And', AND_CHILDREN);
  const filter = conditions(and, 'And');
  const count = ['Prefix', 'ObjectSizeGreaterThan', 'ObjectSizeLessThan'].filter((name) => and[name] !== undefined).length + filter.tags.length;
  if (count < 2) throw malformed('<And> must hold at least two conditions');
  return { ...filter, form: 'and' };
}

/** The first midnight UTC a date given as ISO 8601 (`2026-03-01`, `2026-03-01T00:00:00Z`, with an offset …) names. */
function dateOf(text: string): string {
  const trimmed = text.trim();
  const iso = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/.test(trimmed);
  const at = iso ? new Date(/T/.test(trimmed) && !/(?:Z|[+-]\d{2}:?\d{2})$/.test(trimmed) ? `${trimmed}Z` : trimmed) : undefined;
  if (!at || Number.isNaN(at.getTime())) throw malformed('<Date> must be an ISO 8601 date');
  if (at.getTime() % 86_400_000 !== 0) throw s3Errors.invalidArgument("'Date' must be at midnight GMT", 'Date', trimmed);
  return at.toISOString();
}

function expirationOf(raw: unknown, filter: LifecycleFilter): NonNullable<LifecycleRule['expiration']> {
  const node = container(raw, 'Expiration', EXPIRATION_CHILDREN);
  const days = single(node, 'Days', 'Expiration');
  const date = single(node, 'Date', 'Expiration');
  const marker = single(node, 'ExpiredObjectDeleteMarker', 'Expiration');
  if (marker !== undefined) {
    if (days !== undefined || date !== undefined) throw malformed('ExpiredObjectDeleteMarker cannot be given with Days or Date');
    if (filter.tags.length > 0) throw invalidRequest('ExpiredObjectDeleteMarker cannot be specified with Tags.');
    if (filter.sizeGreaterThan !== undefined || filter.sizeLessThan !== undefined)
      throw invalidRequest('ExpiredObjectDeleteMarker cannot be specified with Object Size.');
    return { expiredObjectDeleteMarker: boolean(marker, 'ExpiredObjectDeleteMarker') };
  }
  if ((days === undefined) === (date === undefined)) throw malformed('<Expiration> takes exactly one of Days, Date and ExpiredObjectDeleteMarker');
  return days !== undefined ? { days: positive(days, 'Days', 'Expiration') } : { date: dateOf(date!) };
}

function noncurrentOf(raw: unknown, legacy: boolean): NonNullable<LifecycleRule['noncurrentExpiration']> {
  const node = container(raw, 'NoncurrentVersionExpiration', new Set(['NoncurrentDays', 'NewerNoncurrentVersions']));
  const days = single(node, 'NoncurrentDays', 'NoncurrentVersionExpiration');
  if (days === undefined) throw malformed('<NoncurrentVersionExpiration> needs <NoncurrentDays>');
  const out: NonNullable<LifecycleRule['noncurrentExpiration']> = { days: positive(days, 'NoncurrentDays', 'NoncurrentVersionExpiration') };
  const newer = single(node, 'NewerNoncurrentVersions', 'NoncurrentVersionExpiration');
  if (newer !== undefined) {
    if (legacy) throw invalidRequest('NewerNoncurrentVersions element can only be used in Lifecycle V2.');
    out.newerVersions = positive(newer, 'NewerNoncurrentVersions', 'NoncurrentVersionExpiration');
  }
  return out;
}

function abortDaysOf(raw: unknown, filter: LifecycleFilter): number {
  const node = container(raw, 'AbortIncompleteMultipartUpload', new Set(['DaysAfterInitiation']));
  const days = single(node, 'DaysAfterInitiation', 'AbortIncompleteMultipartUpload');
  if (days === undefined) throw malformed('<AbortIncompleteMultipartUpload> needs <DaysAfterInitiation>');
  const value = positive(days, 'DaysAfterInitiation', 'AbortIncompleteMultipartUpload');
  // An upload in progress has neither tags nor a size yet.
  if (filter.tags.length > 0) throw invalidRequest('AbortIncompleteMultipartUpload cannot be specified with Tags.');
  if (filter.sizeGreaterThan !== undefined || filter.sizeLessThan !== undefined)
    throw invalidRequest('AbortIncompleteMultipartUpload cannot be specified with Object Size.');
  return value;
}

function ruleOf(raw: unknown): LifecycleRule {
  const node = container(raw, 'Rule', RULE_CHILDREN);
  const id = single(node, 'ID', 'Rule');
  if (id !== undefined && id.length > MAX_ID) throw s3Errors.invalidArgument(`ID length should not exceed allowed limit of ${MAX_ID}`, 'ID', id);
  const status = single(node, 'Status', 'Rule')?.trim();
  if (status !== 'Enabled' && status !== 'Disabled') throw malformed('<Status> must be Enabled or Disabled');
  const legacyPrefix = single(node, 'Prefix', 'Rule');
  if (node.Filter !== undefined && legacyPrefix !== undefined) throw malformed('a rule takes <Filter> or the legacy <Prefix>, not both');
  if (node.Filter === undefined && legacyPrefix === undefined) throw malformed('a rule needs a <Filter> (or the legacy <Prefix>)');
  if (Array.isArray(node.Filter)) throw malformed('<Rule> takes one <Filter>');
  const filter = legacyPrefix !== undefined ? { prefix: prefixOf(legacyPrefix), tags: [] } : filterOf(node.Filter);
  if (node.Transition !== undefined || node.NoncurrentVersionTransition !== undefined)
    throw s3Errors.invalidArgument(
      'Transitions are not supported: edgeplane keeps every object in the one STANDARD storage class, so there is no other class to move objects to.',
      node.Transition !== undefined ? 'Transition' : 'NoncurrentVersionTransition',
    );
  const actions = ['Expiration', 'NoncurrentVersionExpiration', 'AbortIncompleteMultipartUpload'].filter((name) => node[name] !== undefined);
  if (actions.length === 0) throw invalidRequest('At least one action needs to be specified in a rule');
  for (const name of actions) if (Array.isArray(node[name])) throw malformed(`<Rule> takes one <${name}>`);
  const rule: LifecycleRule = { id: id ?? generatedId(), enabled: status === 'Enabled', filter, legacyPrefix: legacyPrefix !== undefined };
  if (node.Expiration !== undefined) rule.expiration = expirationOf(node.Expiration, filter);
  if (node.NoncurrentVersionExpiration !== undefined) rule.noncurrentExpiration = noncurrentOf(node.NoncurrentVersionExpiration, rule.legacyPrefix);
  if (node.AbortIncompleteMultipartUpload !== undefined) rule.abortIncompleteUploadDays = abortDaysOf(node.AbortIncompleteMultipartUpload, filter);
  return rule;
}

/** S3 names a rule given without an ID itself, with a random one. */
const generatedId = () => Buffer.from(randomUUID()).toString('base64');

const NO_RULE = 'a lifecycle configuration needs at least one <Rule>';

/** PutBucketLifecycleConfiguration's body, as the rules to keep; S3's errors for anything S3 refuses. */
export function parseLifecycle(body: Buffer): LifecycleRule[] {
  // An empty root parses as no element at all: say what is missing rather than that it is malformed.
  if (/<LifecycleConfiguration\b[^>]*(?:\/>|>\s*<\/LifecycleConfiguration>)\s*$/.test(body.toString('utf8'))) throw malformed(NO_RULE);
  const doc = container(parseXml(body, 'LifecycleConfiguration'), 'LifecycleConfiguration', new Set(['Rule']));
  const raw = (doc.Rule as unknown[] | undefined) ?? [];
  if (raw.length === 0) throw malformed(NO_RULE);
  if (raw.length > MAX_RULES) throw malformed(`a lifecycle configuration has at most ${MAX_RULES} rules`);
  const rules = raw.map(ruleOf);
  if (rules.some((r) => r.legacyPrefix) && rules.some((r) => !r.legacyPrefix)) throw invalidRequest('Filter element can only be used in Lifecycle V2.');
  const ids = new Set<string>();
  for (const rule of rules) {
    if (ids.has(rule.id!)) throw s3Errors.invalidArgument('Rule ID must be unique. Found same ID for more than one rule', 'ID', rule.id);
    ids.add(rule.id!);
  }
  return rules;
}

const tagElement = (tag: Tag) => element('Tag', [element('Key', tag.key), element('Value', tag.value)]);

function filterElement(filter: LifecycleFilter): string {
  if (filter.form === 'empty') return element('Filter', []);
  const parts = [
    ...(filter.form === 'and' && filter.prefix === '' ? [] : [element('Prefix', filter.prefix)]),
    ...filter.tags.map(tagElement),
    element('ObjectSizeGreaterThan', filter.sizeGreaterThan),
    element('ObjectSizeLessThan', filter.sizeLessThan),
  ];
  if (filter.form === 'and') return element('Filter', [element('And', parts)]);
  // One condition alone: the prefix only when it is the one given.
  const only = filter.tags.length > 0 || filter.sizeGreaterThan !== undefined || filter.sizeLessThan !== undefined ? parts.slice(1) : parts;
  return element('Filter', only);
}

function ruleElement(rule: LifecycleRule): string {
  const expiration = rule.expiration;
  return element('Rule', [
    element('ID', rule.id),
    rule.legacyPrefix ? element('Prefix', rule.filter.prefix) : filterElement(rule.filter),
    element('Status', rule.enabled ? 'Enabled' : 'Disabled'),
    expiration === undefined
      ? ''
      : element('Expiration', [
          element('Days', expiration.days),
          element('Date', expiration.date),
          element('ExpiredObjectDeleteMarker', expiration.expiredObjectDeleteMarker),
        ]),
    rule.noncurrentExpiration === undefined
      ? ''
      : element('NoncurrentVersionExpiration', [
          element('NoncurrentDays', rule.noncurrentExpiration.days),
          element('NewerNoncurrentVersions', rule.noncurrentExpiration.newerVersions),
        ]),
    rule.abortIncompleteUploadDays === undefined
      ? ''
      : element('AbortIncompleteMultipartUpload', [element('DaysAfterInitiation', rule.abortIncompleteUploadDays)]),
  ]);
}

/** GetBucketLifecycleConfiguration's answer. */
export function lifecycleXml(rules: LifecycleRule[]): string {
  return rootElement('LifecycleConfiguration', rules.map(ruleElement));
}
