/**
 * S3's XML: answers are built from a few nested elements, with text escaped; the request bodies S3
 * takes (CompleteMultipartUpload, Delete, the configuration documents) are parsed with fast-xml-parser, refusing
 * documents that declare a DOCTYPE (entity expansion has no place in these bodies).
 */
import { XMLParser } from 'fast-xml-parser';
import { s3Errors } from './errors.js';

export const S3_NAMESPACE = 'http://s3.amazonaws.com/doc/2006-03-01/';

/** An element and its content: text (escaped here) or elements already built. Undefined content leaves the element out. */
export function element(name: string, content: string | number | boolean | readonly string[] | undefined, attributes = ''): string {
  if (content === undefined) return '';
  const inner = Array.isArray(content) ? content.join('') : escapeXml(String(content));
  return `<${name}${attributes}>${inner}</${name}>`;
}

export const xmlDocument = (root: string) => `<?xml version="1.0" encoding="UTF-8"?>\n${root}`;

/** A root element in S3's namespace. */
export const rootElement = (name: string, children: readonly string[]) => element(name, children, ` xmlns="${S3_NAMESPACE}"`);

export function escapeXml(text: string): string {
  return text.replace(/[&<>"'\r]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;', '\r': '&#13;' })[c]!);
}

/** Elements that may repeat in the bodies S3 takes: always arrays, even when there is one. */
const REPEATED = new Set([
  'Object',
  'Part',
  'Tag',
  'CORSRule',
  'AllowedMethod',
  'AllowedOrigin',
  'AllowedHeader',
  'ExposeHeader',
  'Rule',
  'Transition',
  'NoncurrentVersionTransition',
]);

const parser = new XMLParser({
  ignoreAttributes: true,
  parseTagValue: false,
  trimValues: false,
  processEntities: true,
  // Numeric character references (`&#34;`, which Go's encoder writes for quotes in ETags) decoded too.
  htmlEntities: true,
  isArray: (name) => REPEATED.has(name),
});

/** The body's root element, parsed; MalformedXML for anything that is not a plain XML document. */
export function parseXml(body: Buffer, root: string): Record<string, unknown> {
  const text = body.toString('utf8');
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) throw s3Errors.malformedXml();
  let parsed: Record<string, unknown>;
  try {
    parsed = parser.parse(text, true) as Record<string, unknown>;
  } catch {
    throw s3Errors.malformedXml();
  }
  const value = parsed[root];
  // `<Root/>` and `<Root></Root>`: an empty document, which some configurations are (no logging, no notifications).
  if (value === '') return {};
  if (value === undefined || typeof value !== 'object' || value === null) throw s3Errors.malformedXml();
  return value as Record<string, unknown>;
}

/** An element's text ('' when empty or absent). */
export function textOf(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw s3Errors.malformedXml();
}
