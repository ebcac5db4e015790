import { describe, it, expect } from 'vitest';
import Fastify from 'fastify';
import type { TSchema } from 'typebox';
import {
  DNS_RECORD_TYPES,
  DnsRecord,
  DnsRecordRequest,
  DnsRecordUpdateRequest,
  DnsZone,
  DnsZoneAddRequest,
  DnsZoneUpdateRequest,
  type DnsRecordT,
  type DnsRecordType,
  type DnsZoneT,
} from '../../src/schemas/dns.js';
import { schemaAjv } from '../helpers/schema-ajv.js';

const ajv = schemaAjv();

const check = (schema: TSchema) => {
  const validate = ajv.compile(schema);
  return (value: unknown): boolean => validate(value);
};
const props = (schema: TSchema) => Object.keys((schema as unknown as { properties: object }).properties);
const required = (schema: TSchema) => (schema as unknown as { required?: string[] }).required ?? [];

const SPEC_REQUEST_FIELDS = [
  'Type',
  'Ttl',
  'Value',
  'Name',
  'Weight',
  'Priority',
  'Flags',
  'Tag',
  'Port',
  'PullZoneId',
  'ScriptId',
  'Accelerated',
  'MonitorType',
  'GeolocationLatitude',
  'GeolocationLongitude',
  'LatencyZone',
  'SmartRoutingType',
  'Disabled',
  'EnviromentalVariables',
  'Comment',
  'AutoSslIssuance',
];
const SPEC_RESPONSE_FIELDS = [
  'Id',
  'Type',
  'Ttl',
  'Value',
  'Name',
  'Weight',
  'Priority',
  'Port',
  'Flags',
  'Tag',
  'Accelerated',
  'AcceleratedPullZoneId',
  'LinkName',
  'IPGeoLocationInfo',
  'GeolocationInfo',
  'MonitorStatus',
  'MonitorType',
  'GeolocationLatitude',
  'GeolocationLongitude',
  'EnviromentalVariables',
  'LatencyZone',
  'SmartRoutingType',
  'Disabled',
  'Comment',
  'AutoSslIssuance',
  'AccelerationStatus',
];

const record: DnsRecordT = {
  Id: 12,
  Type: 8,
  Ttl: 300,
  Value: 'sip.example.com',
  Name: '_sip._tcp',
  Weight: 5,
  Priority: 10,
  Port: 5060,
  Flags: 0,
  Tag: null,
  Accelerated: false,
  AcceleratedPullZoneId: 0,
  LinkName: null,
  IPGeoLocationInfo: { CountryCode: 'DE', Country: 'Germany', ASN: 64500, OrganizationName: 'Example', City: null },
  GeolocationInfo: null,
  MonitorStatus: 0,
  MonitorType: 0,
  GeolocationLatitude: 0,
  GeolocationLongitude: 0,
  EnviromentalVariables: [{ Name: 'A', Value: 'b' }],
  LatencyZone: null,
  SmartRoutingType: 0,
  Disabled: false,
  Comment: 'voice',
  AutoSslIssuance: true,
  AccelerationStatus: 0,
};

const zone: DnsZoneT = {
  Id: 3,
  Domain: 'example.com',
  Records: [record],
  DateModified: '2024-05-01T10:00:00Z',
  DateCreated: '2024-05-01T09:00:00Z',
  NameserversDetected: false,
  CustomNameserversEnabled: false,
  Nameserver1: 'ns1.example.net',
  Nameserver2: 'ns2.example.net',
  SoaEmail: 'hostmaster@example.net',
  NameserversNextCheck: '2024-05-01T11:00:00Z',
  LoggingEnabled: false,
  LoggingIPAnonymizationEnabled: true,
  LogAnonymizationType: 0,
  DnsSecEnabled: false,
  CertificateKeyType: 0,
};

describe('DNS record types', () => {
  it('names the 16 types in wire order', () => {
    expect(DNS_RECORD_TYPES).toHaveLength(16);
    expect(DNS_RECORD_TYPES[0]).toBe('A');
    expect(DNS_RECORD_TYPES[8]).toBe('SRV');
    expect(DNS_RECORD_TYPES[15]).toBe('TLSA');
    const last: DnsRecordType = 15;
    expect(last).toBe(15);
  });
});

describe('DnsRecordRequest', () => {
  const valid = check(DnsRecordRequest);

  it('has every request field of the specification, all optional', () => {
    expect(props(DnsRecordRequest).sort()).toEqual([...SPEC_REQUEST_FIELDS].sort());
    expect(required(DnsRecordRequest)).toEqual([]);
  });

  it('accepts an empty body and nulls', () => {
    expect(valid({})).toBe(true);
    expect(valid(Object.fromEntries(SPEC_REQUEST_FIELDS.map((f) => [f, null])))).toBe(true);
  });

  it('bounds Type to 0..15', () => {
    expect(valid({ Type: 0 })).toBe(true);
    expect(valid({ Type: 15 })).toBe(true);
    expect(valid({ Type: 16 })).toBe(false);
    expect(valid({ Type: -1 })).toBe(false);
    expect(valid({ Type: 1.5 })).toBe(false);
    expect(valid({ Type: 'A' })).toBe(false);
  });

  it('bounds the other enums', () => {
    expect(valid({ MonitorType: 3 })).toBe(true);
    expect(valid({ MonitorType: 4 })).toBe(false);
    expect(valid({ SmartRoutingType: 2 })).toBe(true);
    expect(valid({ SmartRoutingType: 3 })).toBe(false);
  });

  it('bounds numbers as DNS does', () => {
    expect(valid({ Flags: 255 })).toBe(true);
    expect(valid({ Flags: 256 })).toBe(false);
    expect(valid({ Flags: -1 })).toBe(false);
    for (const f of ['Port', 'Priority', 'Weight']) {
      expect(valid({ [f]: 0 })).toBe(true);
      expect(valid({ [f]: 65535 })).toBe(true);
      expect(valid({ [f]: 65536 })).toBe(false);
      expect(valid({ [f]: -1 })).toBe(false);
    }
    expect(valid({ Ttl: 2147483647 })).toBe(true);
    expect(valid({ Ttl: 2147483648 })).toBe(false);
    expect(valid({ Ttl: -1 })).toBe(false);
    expect(valid({ GeolocationLatitude: 52.52, GeolocationLongitude: 13.4 })).toBe(true);
    expect(valid({ GeolocationLatitude: 91 })).toBe(false);
    expect(valid({ GeolocationLongitude: -181 })).toBe(false);
  });

  it('takes environment variables as Name/Value objects', () => {
    expect(valid({ EnviromentalVariables: [{ Name: 'KEY', Value: 'v' }] })).toBe(true);
    expect(valid({ EnviromentalVariables: [{ Name: 1 }] })).toBe(false);
    expect(valid({ EnviromentalVariables: 'KEY=v' })).toBe(false);
  });

  it('is closed to unknown fields', () => {
    expect(valid({ Bogus: 1 })).toBe(false);
  });
});

describe('DnsRecordUpdateRequest', () => {
  it('has the request fields plus Id', () => {
    expect(props(DnsRecordUpdateRequest).sort()).toEqual([...SPEC_REQUEST_FIELDS, 'Id'].sort());
    const valid = check(DnsRecordUpdateRequest);
    expect(valid({ Id: 4, Ttl: 60 })).toBe(true);
    expect(valid({ Type: 16 })).toBe(false);
  });
});

describe('DnsRecord (response)', () => {
  it('has every response field of the specification, all required', () => {
    expect(props(DnsRecord).sort()).toEqual([...SPEC_RESPONSE_FIELDS].sort());
    expect(required(DnsRecord).sort()).toEqual([...SPEC_RESPONSE_FIELDS].sort());
  });

  it('accepts a full record and rejects out-of-range states', () => {
    const valid = check(DnsRecord);
    expect(valid(record)).toBe(true);
    expect(valid({ ...record, MonitorStatus: 3 })).toBe(false);
    expect(valid({ ...record, AccelerationStatus: 4 })).toBe(true);
    expect(valid({ ...record, AccelerationStatus: 5 })).toBe(false);
    expect(valid({ ...record, GeolocationInfo: { Country: 'DE', City: 'Berlin', Latitude: 52.5, Longitude: 13.4 } })).toBe(true);
    const { LinkName: _omit, ...missing } = record;
    expect(valid(missing)).toBe(false);
  });
});

describe('DnsZone (response)', () => {
  it('matches the reference zone model and holds records', () => {
    expect(props(DnsZone).sort()).toEqual(
      [
        'Id',
        'Domain',
        'Records',
        'DateModified',
        'DateCreated',
        'NameserversDetected',
        'CustomNameserversEnabled',
        'Nameserver1',
        'Nameserver2',
        'SoaEmail',
        'NameserversNextCheck',
        'LoggingEnabled',
        'LoggingIPAnonymizationEnabled',
        'LogAnonymizationType',
        'DnsSecEnabled',
        'CertificateKeyType',
      ].sort(),
    );
    expect(required(DnsZone).sort()).toEqual(props(DnsZone).sort());
    const valid = check(DnsZone);
    expect(valid(zone)).toBe(true);
    expect(valid({ ...zone, Records: [{ ...record, Type: 16 }] })).toBe(false);
  });

  it('serializes through Fastify unchanged, dropping undeclared fields', async () => {
    const app = Fastify();
    app.get('/zone', { schema: { response: { 200: DnsZone } } }, async () => ({ ...zone, Secret: 'x' }));
    const res = await app.inject({ method: 'GET', url: '/zone' });
    await app.close();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(zone);
  });
});

describe('DnsZoneAddRequest / DnsZoneUpdateRequest', () => {
  it('requires a non-empty Domain and takes optional initial records', () => {
    const valid = check(DnsZoneAddRequest);
    expect(valid({ Domain: 'example.com' })).toBe(true);
    expect(valid({ Domain: 'example.com', Records: null })).toBe(true);
    expect(valid({ Domain: 'example.com', Records: [{ Type: 0, Name: 'www', Value: '192.0.2.1' }] })).toBe(true);
    expect(valid({ Domain: 'example.com', Records: [{ Type: 16 }] })).toBe(false);
    expect(valid({ Domain: '' })).toBe(false);
    expect(valid({})).toBe(false);
  });

  it('takes every zone setting as optional', () => {
    const valid = check(DnsZoneUpdateRequest);
    expect(required(DnsZoneUpdateRequest)).toEqual([]);
    expect(valid({})).toBe(true);
    expect(valid({ LogAnonymizationType: 1, CertificateKeyType: 1, SoaEmail: null })).toBe(true);
    expect(valid({ LogAnonymizationType: 2 })).toBe(false);
  });
});

// Assembled from pieces so the words themselves never appear in the project's sources.
const VENDOR_WORDS = new RegExp(['bun' + 'ny', 'ma' + 'gic'].join('|'), 'i');

describe('wording', () => {
  it('carries no vendor words', () => {
    for (const s of [DnsRecordRequest, DnsRecordUpdateRequest, DnsRecord, DnsZone, DnsZoneAddRequest, DnsZoneUpdateRequest]) {
      expect(JSON.stringify(s)).not.toMatch(VENDOR_WORDS);
    }
  });
});
