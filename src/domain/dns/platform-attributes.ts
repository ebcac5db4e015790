/**
 * The record fields a zone file has no place for (a PullZone record's pull zone, a record's
 * comment, its monitoring and routing settings, …), written as `Key=value` words inside
 * `; edgeplane:` comments so an export loses nothing and an import restores it. Values are bare
 * numbers and booleans, or quoted strings with zone-file escapes; EnviromentalVariables is quoted
 * JSON. Every value is checked against the same bounds the JSON API enforces.
 */
import type { DnsRecordRequestT } from '../../schemas/dns.js';
import type { ZoneFileToken } from './zone-file.js';
import { decodeText, quoted } from './zone-text.js';

type Attribute =
  | { kind: 'integer'; min: number; max: number }
  | { kind: 'number'; min: number; max: number }
  | { kind: 'boolean' }
  | { kind: 'string' }
  | { kind: 'variables' };

const U16 = { kind: 'integer', min: 0, max: 65535 } as const;
const ID = { kind: 'integer', min: 1, max: Number.MAX_SAFE_INTEGER } as const;
const BOOLEAN = { kind: 'boolean' } as const;
const STRING = { kind: 'string' } as const;

/** In the order they are written. */
export const ATTRIBUTES = {
  Value: STRING,
  Priority: U16,
  Weight: U16,
  Port: U16,
  Flags: { kind: 'integer', min: 0, max: 255 },
  Tag: STRING,
  PullZoneId: ID,
  ScriptId: ID,
  Accelerated: BOOLEAN,
  MonitorType: { kind: 'integer', min: 0, max: 3 },
  SmartRoutingType: { kind: 'integer', min: 0, max: 2 },
  GeolocationLatitude: { kind: 'number', min: -90, max: 90 },
  GeolocationLongitude: { kind: 'number', min: -180, max: 180 },
  LatencyZone: STRING,
  Disabled: BOOLEAN,
  AutoSslIssuance: BOOLEAN,
  EnviromentalVariables: { kind: 'variables' },
  Comment: STRING,
} as const satisfies Record<string, Attribute>;

export type AttributeName = keyof typeof ATTRIBUTES;
export type Attributes = Pick<DnsRecordRequestT, AttributeName>;

/** Worth writing: set, and not what a record gets when the field is left out. */
function isSet(value: unknown): boolean {
  if (value == null || value === 0 || value === false) return false;
  return !(Array.isArray(value) && value.length === 0);
}

/** `Key=value …` for the fields of `values` that are set, leaving out `skip`. */
export function encodeAttributes(values: Attributes, skip: readonly AttributeName[] = []): string {
  const words: string[] = [];
  for (const name of Object.keys(ATTRIBUTES) as AttributeName[]) {
    const value = values[name];
    // Coordinates of exactly 0 are still coordinates: the record had them set.
    const keep = name === 'GeolocationLatitude' || name === 'GeolocationLongitude' ? value != null : isSet(value);
    if (skip.includes(name) || !keep) continue;
    const text = typeof value === 'string' ? quoted(value) : Array.isArray(value) ? quoted(JSON.stringify(value)) : String(value);
    words.push(`${name}=${text}`);
  }
  return words.join(' ');
}

/** The fields named by `Key=value` words; a problem (for the import's count) when one is wrong. */
export function decodeAttributes(words: ZoneFileToken[]): { values: Attributes } | { problem: string } {
  const values: Record<string, unknown> = {};
  for (const word of words) {
    const match = /^([A-Za-z]+)=(.*)$/s.exec(word.text);
    const name = match?.[1] as AttributeName | undefined;
    if (word.quoted || !match || name === undefined || !(name in ATTRIBUTES)) return { problem: `"${word.text}" is not a record setting.` };
    const raw = match[2]!;
    const value = decodeValue(ATTRIBUTES[name], raw);
    if (value === undefined) return { problem: `${name} has an invalid value ${raw}.` };
    values[name] = value;
  }
  return { values: values as Attributes };
}

function decodeValue(attribute: Attribute, raw: string): unknown {
  const text = () => (raw.startsWith('"') && raw.endsWith('"') && raw.length >= 2 ? decodeText(raw.slice(1, -1)) : undefined);
  switch (attribute.kind) {
    case 'integer':
    case 'number': {
      const pattern = attribute.kind === 'integer' ? /^-?\d+$/ : /^-?\d+(?:\.\d+)?(?:e[-+]?\d+)?$/i;
      const n = Number(raw);
      return pattern.test(raw) && n >= attribute.min && n <= attribute.max ? n : undefined;
    }
    case 'boolean':
      return raw === 'true' ? true : raw === 'false' ? false : undefined;
    case 'string':
      return text();
    case 'variables': {
      const json = text();
      if (json === undefined) return undefined;
      try {
        const parsed: unknown = JSON.parse(json);
        return isVariables(parsed) ? parsed.map((v) => ({ Name: v.Name ?? null, Value: v.Value ?? null })) : undefined;
      } catch {
        return undefined;
      }
    }
  }
}

type Variable = { Name?: string | null; Value?: string | null };
const isVariables = (value: unknown): value is Variable[] =>
  Array.isArray(value) &&
  value.every(
    (v) =>
      typeof v === 'object' &&
      v !== null &&
      ['Name', 'Value'].every((k) => {
        const field = (v as Record<string, unknown>)[k];
        return field === undefined || field === null || typeof field === 'string';
      }),
  );
