import { describe, expect, it } from 'vitest';
import { newStorageZone, storageHostname } from '../../src/domain/storage-zones/defaults.js';
import {
  STORAGE_MAIN_REGIONS,
  STORAGE_REPLICATION_REGIONS,
  StorageZone,
  StorageZoneAddRequest,
  StorageZoneUpdateRequest,
} from '../../src/schemas/storage-zone.js';
import { schemaAjv } from '../helpers/schema-ajv.js';

const ajv = schemaAjv();
const validateZone = ajv.compile(StorageZone);
const validateAdd = ajv.compile(StorageZoneAddRequest);
const validateUpdate = ajv.compile(StorageZoneUpdateRequest);

/** Spec 2.6 response fields; `true` marks the ones typed "or null". */
const SPEC_FIELDS: Record<string, boolean> = {
  Id: false,
  UserId: true,
  Name: true,
  Password: true,
  ReadOnlyPassword: true,
  DateModified: false,
  Deleted: false,
  StorageUsed: false,
  FilesStored: false,
  Region: true,
  ReplicationRegions: true,
  PullZones: true,
  Rewrite404To200: false,
  Custom404FilePath: true,
  StorageHostname: true,
  ZoneTier: false,
  ReplicationChangeInProgress: false,
  PriceOverride: false,
  Discount: false,
  StorageZoneType: false,
};

const VENDOR_WORDS = /bunny|apple|google|widevine|fairplay|vi\.ai|viai/i;

type Json = Record<string, unknown>;
const props = (schema: unknown) => (schema as { properties: Record<string, Json> }).properties;
const required = (schema: unknown) => (schema as { required?: string[] }).required ?? [];
const allowsNull = (s: Json) => (Array.isArray(s['type']) ? (s['type'] as string[]).includes('null') : s['type'] === 'null');

function words(schema: unknown, out: string[] = []): string[] {
  if (Array.isArray(schema)) for (const s of schema) words(s, out);
  else if (schema !== null && typeof schema === 'object') {
    const o = schema as Json;
    if (typeof o['description'] === 'string') out.push(o['description']);
    if (o['properties'] && typeof o['properties'] === 'object') out.push(...Object.keys(o['properties'] as Json));
    for (const v of Object.values(o)) words(v, out);
  }
  return out;
}

const zone = (storageZoneType: 0 | 1 = 0) =>
  newStorageZone({
    id: 5,
    userId: 'acct-1',
    name: 'assets',
    region: 'NY',
    replicationRegions: ['DE', 'SYD'],
    zoneTier: 0,
    storageZoneType,
    password: 'pw-rw',
    readOnlyPassword: 'pw-ro',
    storageHostname: storageHostname('NY', 'storage.example.test'),
    now: new Date('2025-01-02T03:04:05.000Z'),
  });

describe('StorageZone response schema', () => {
  it("lists every field of spec 2.6, with the spec's nullability", () => {
    const p = props(StorageZone);
    for (const [name, nullable] of Object.entries(SPEC_FIELDS)) {
      expect(p, name).toHaveProperty(name);
      expect(allowsNull(p[name]!), `${name} nullable`).toBe(nullable);
    }
    expect(p).toHaveProperty('S3Hostname');
  });

  it('requires every property', () => {
    expect([...required(StorageZone)].sort()).toEqual(Object.keys(props(StorageZone)).sort());
  });

  it('accepts the defaults of a new zone, with and without pull zones', () => {
    for (const type of [0, 1] as const) {
      const z = zone(type);
      expect(Object.keys(z)).not.toContain('PullZones');
      expect(validateZone({ ...z, PullZones: [] }), JSON.stringify(validateZone.errors)).toBe(true);
      expect(validateZone({ ...z, PullZones: null })).toBe(true);
      expect([...Object.keys(z), 'PullZones'].sort()).toEqual(Object.keys(props(StorageZone)).sort());
    }
    expect(zone(0).S3Hostname).toBeNull();
    expect(zone(1).S3Hostname).toBe('s3.ny.storage.example.test');
    expect(zone().DateModified).toBe('2025-01-02T03:04:05.000Z');
    expect(validateZone({ ...zone(), PullZones: [], ZoneTier: 2 })).toBe(false);
  });

  it('builds storage host names per region', () => {
    expect(storageHostname('DE', 'storage.example.test')).toBe('storage.example.test');
    expect(storageHostname('NY', 'storage.example.test')).toBe('ny.storage.example.test');
    expect(storageHostname('SYD', 'storage.example.test')).toBe('syd.storage.example.test');
  });
});

describe('StorageZoneAddRequest', () => {
  it("region lists are the spec's", () => {
    expect([...STORAGE_MAIN_REGIONS]).toEqual(['DE', 'NY', 'LA', 'SG']);
    expect([...STORAGE_REPLICATION_REGIONS]).toEqual(['DE', 'NY', 'LA', 'SG', 'SYD']);
  });

  it('checks Name and Region', () => {
    for (const r of STORAGE_MAIN_REGIONS) expect(validateAdd({ Name: 'z', Region: r }), r).toBe(true);
    expect(validateAdd({ Name: 'z', Region: 'SYD' })).toBe(false);
    expect(validateAdd({ Name: 'z', Region: '' })).toBe(false);
    expect(validateAdd({ Name: 'z', Region: 'de' })).toBe(false);
    expect(validateAdd({ Name: 'z' })).toBe(false);
    expect(validateAdd({ Name: '', Region: 'DE' })).toBe(false);
    expect(validateAdd({ Region: 'DE' })).toBe(false);
  });

  it('checks replication regions', () => {
    expect(validateAdd({ Name: 'z', Region: 'DE', ReplicationRegions: ['SYD'] })).toBe(true);
    expect(validateAdd({ Name: 'z', Region: 'DE', ReplicationRegions: [...STORAGE_REPLICATION_REGIONS] })).toBe(true);
    expect(validateAdd({ Name: 'z', Region: 'DE', ReplicationRegions: [] })).toBe(true);
    expect(validateAdd({ Name: 'z', Region: 'DE', ReplicationRegions: null })).toBe(true);
    expect(validateAdd({ Name: 'z', Region: 'DE', ReplicationRegions: ['XX'] })).toBe(false);
    expect(validateAdd({ Name: 'z', Region: 'DE', ReplicationRegions: ['NY', 'NY'] })).toBe(false);
  });

  it('checks tier and type', () => {
    expect(validateAdd({ Name: 'z', Region: 'DE', ZoneTier: 1, StorageZoneType: 1 })).toBe(true);
    expect(validateAdd({ Name: 'z', Region: 'DE', ZoneTier: 2 })).toBe(false);
    expect(validateAdd({ Name: 'z', Region: 'DE', StorageZoneType: -1 })).toBe(false);
    expect(validateAdd({ Name: 'z', Region: 'DE', Extra: true })).toBe(false);
  });
});

describe('StorageZoneUpdateRequest', () => {
  it('has every field optional', () => {
    expect(validateUpdate({})).toBe(true);
    expect(validateUpdate({ ReplicationZones: null, OriginUrl: null, Custom404FilePath: null, Rewrite404To200: null })).toBe(true);
    expect(validateUpdate({ ReplicationZones: ['SYD'], OriginUrl: 'https://origin.example', Custom404FilePath: '/404.html', Rewrite404To200: true })).toBe(
      true,
    );
    expect(validateUpdate({ ReplicationZones: ['XX'] })).toBe(false);
    expect(validateUpdate({ ReplicationZones: ['LA', 'LA'] })).toBe(false);
    expect(validateUpdate({ Unknown: 1 })).toBe(false);
  });
});

describe('neutral names', () => {
  it('no property name or description carries a vendor word', () => {
    // The response embeds the pull zone schema too: the whole tree must be neutral.
    for (const schema of [StorageZone, StorageZoneAddRequest, StorageZoneUpdateRequest]) {
      for (const w of words(schema)) expect(w).not.toMatch(VENDOR_WORDS);
    }
    expect(JSON.stringify(zone(1))).not.toMatch(VENDOR_WORDS);
  });
});
