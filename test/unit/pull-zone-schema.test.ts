import { describe, it, expect } from 'vitest';
import Fastify from 'fastify';
import type { TSchema } from 'typebox';
import {
  AiImageBlueprint,
  EDGE_RULE_ACTION_TYPES,
  EdgeRule,
  EdgeRuleExtraAction,
  EdgeRuleTrigger,
  Hostname,
  OptimizerClass,
  PULL_ZONE_READ_ONLY_FIELDS,
  PullZone,
  PullZoneAddRequest,
  PullZoneUpdateRequest,
  type EdgeRuleT,
  type PullZoneAddRequestT,
  type PullZoneT,
  type PullZoneUpdateRequestT,
} from '../../src/schemas/pull-zone.js';
import { newHostname, newPullZone } from '../../src/domain/pull-zones/defaults.js';
import { schemaAjv } from '../helpers/schema-ajv.js';

const ajv = schemaAjv();

const check = (schema: TSchema) => {
  const validate = ajv.compile(schema);
  return (value: unknown): boolean => validate(value);
};
type Props = Record<string, { description?: string; type?: unknown; enum?: unknown[]; minimum?: number; maximum?: number }>;
const propsOf = (schema: TSchema) => (schema as unknown as { properties: Props }).properties;
const props = (schema: TSchema) => Object.keys(propsOf(schema));
const required = (schema: TSchema) => (schema as unknown as { required?: string[] }).required ?? [];

/** Every field of spec 2.4, in the order the specification lists them. */
const SPEC_FIELDS = [
  'Id',
  'Name',
  'OriginUrl',
  'Enabled',
  'Suspended',
  'Hostnames',
  'StorageZoneId',
  'EdgeScriptId',
  'EdgeScriptExecutionPhase',
  'MiddlewareScriptId',
  'ManagedContainersAppId',
  'ManagedContainersEndpointId',
  'VideoLibraryId',
  'DnsRecordId',
  'DnsZoneId',
  'DnsRecordValue',
  'UserId',
  'CacheVersion',
  'Type',
  'OriginType',
  'OriginLinkValue',
  'CnameDomain',
  'AllowedReferrers',
  'BlockedReferrers',
  'BlockedIps',
  'BlockNoneReferrer',
  'BlockedCountries',
  'BudgetRedirectedCountries',
  'BlockRootPathAccess',
  'BlockPostRequests',
  'ZoneSecurityEnabled',
  'ZoneSecurityKey',
  'ZoneSecurityIncludeHashRemoteIP',
  'EnableGeoZoneUS',
  'EnableGeoZoneEU',
  'EnableGeoZoneASIA',
  'EnableGeoZoneSA',
  'EnableGeoZoneAF',
  'RoutingFilters',
  'MonthlyBandwidthLimit',
  'MonthlyBandwidthUsed',
  'MonthlyCharges',
  'BurstSize',
  'RequestLimit',
  'LimitRatePerSecond',
  'LimitRateAfter',
  'ConnectionLimitPerIPCount',
  'PriceOverride',
  'OptimizerPricing',
  'EUUSDiscount',
  'SouthAmericaDiscount',
  'AfricaDiscount',
  'AsiaOceaniaDiscount',
  'IgnoreQueryStrings',
  'EnableQueryStringOrdering',
  'QueryStringVaryParameters',
  'CacheControlMaxAgeOverride',
  'CacheControlPublicMaxAgeOverride',
  'EnableCacheSlice',
  'EnableSmartCache',
  'CacheErrorResponses',
  'UseStaleWhileUpdating',
  'UseStaleWhileOffline',
  'UseBackgroundUpdate',
  'EnableWebPVary',
  'EnableAvifVary',
  'EnableCountryCodeVary',
  'EnableCountryStateCodeVary',
  'EnableMobileVary',
  'EnableCookieVary',
  'EnableHostnameVary',
  'CookieVaryParameters',
  'CacheKeyHeaders',
  'AddHostHeader',
  'OriginHostHeader',
  'AddCanonicalHeader',
  'FollowRedirects',
  'VerifyOriginSSL',
  'OriginRetries',
  'OriginConnectTimeout',
  'OriginResponseTimeout',
  'OriginRetry5XXResponses',
  'OriginRetryConnectionTimeout',
  'OriginRetryResponseTimeout',
  'OriginRetryDelay',
  'EnableOriginShield',
  'OriginShieldZoneCode',
  'OriginShieldEnableConcurrencyLimit',
  'OriginShieldMaxConcurrentRequests',
  'OriginShieldQueueMaxWaitTime',
  'OriginShieldMaxQueuedRequests',
  'EnableRequestCoalescing',
  'RequestCoalescingTimeout',
  'EnableSafeHop',
  'PermaCacheStorageZoneId',
  'PermaCacheType',
  'DisableCookies',
  'EnableAccessControlOriginHeader',
  'AccessControlOriginHeaderExtensions',
  'EnableWebSockets',
  'MaxWebSocketConnections',
  'RequestSigningEnabled',
  'RequestSigningKey',
  'RequestSigningSecret',
  'RequestSigningRegionName',
  'EnableTLS1',
  'EnableTLS1_1',
  'EnableAutoSSL',
  'DisableBuiltInCertificateIssuance',
  'EnableLogging',
  'EnableExtendedLogging',
  'LoggingIPAnonymizationEnabled',
  'LogAnonymizationType',
  'LogFormat',
  'LoggingSaveToStorage',
  'LoggingStorageZoneId',
  'LogForwardingEnabled',
  'LogForwardingHostname',
  'LogForwardingPort',
  'LogForwardingToken',
  'LogForwardingProtocol',
  'LogForwardingFormat',
  'ErrorPageEnableCustomCode',
  'ErrorPageCustomCode',
  'ErrorPageEnableStatusWidget',
  'ErrorPageStatusCode',
  'ErrorPageWhitelabel',
  'PreloadingScreenEnabled',
  'PreloadingScreenShowOnFirstVisit',
  'PreloadingScreenCode',
  'PreloadingScreenLogoUrl',
  'PreloadingScreenCodeEnabled',
  'PreloadingScreenTheme',
  'PreloadingScreenDelay',
  'ShieldDDosProtectionEnabled',
  'ShieldDDosProtectionType',
  'StickySessionType',
  'StickySessionCookieName',
  'StickySessionClientHeaders',
  'OptimizerEnabled',
  'OptimizerTunnelEnabled',
  'OptimizerEnableWebP',
  'OptimizerPrerenderHtml',
  'OptimizerEnableManipulationEngine',
  'OptimizerMinifyCSS',
  'OptimizerMinifyJavaScript',
  'OptimizerWatermarkEnabled',
  'OptimizerAutomaticOptimizationEnabled',
  'OptimizerEnableUpscaling',
  'OptimizerForceClasses',
  'OptimizerStaticHtmlEnabled',
  'OptimizerDesktopMaxWidth',
  'OptimizerMobileMaxWidth',
  'OptimizerImageQuality',
  'OptimizerMobileImageQuality',
  'OptimizerWatermarkUrl',
  'OptimizerWatermarkPosition',
  'OptimizerWatermarkOffset',
  'OptimizerWatermarkMinImageSize',
  'OptimizerClasses',
  'OptimizerStaticHtmlCmsPath',
  'OptimizerStaticHtmlCmsBypassCookie',
  'EnableVendorImageAi',
  'VendorAiImageBlueprints',
  'EdgeRules',
];
/** Properties of the reference response model that the specification does not list. */
const REFERENCE_ONLY_FIELDS = ['IpFamilyPolicy', 'TlsSecurityLevel', 'LoadBalancerId'];
/** Settings the update body takes although the response has no field of that name. */
const REQUEST_ONLY_FIELDS = ['CacheControlBrowserMaxAgeOverride', 'DnsOriginPort', 'DnsOriginScheme'];

const VENDOR_WORDS = /bunny|magic|aws|wordpress|letsencrypt|statuspage|datadog/i;

const zone = (): PullZoneT =>
  newPullZone({
    id: 7,
    userId: 'user-1',
    name: 'assets',
    originUrl: 'https://origin.example.com',
    type: 0,
    systemHostname: { id: 70, value: 'assets.edgeplane.test' },
  });

const rule: EdgeRuleT = {
  Guid: '6a1f0c1e-7a55-4b0e-9f1a-0d6f6c1b2a3c',
  ActionType: 1,
  ActionParameter1: 'https://example.com/new',
  ActionParameter2: '301',
  ActionParameter3: '',
  Triggers: [{ Type: 0, PatternMatches: ['*/old/*'], PatternMatchingType: 0, Parameter1: '' }],
  ExtraActions: [{ ActionType: 5, ActionParameter1: 'X-Moved', ActionParameter2: 'yes', ActionParameter3: '' }],
  TriggerMatchingType: 0,
  Description: 'Move old paths',
  Enabled: true,
  OrderIndex: 0,
  ReadOnly: false,
};

/** Collects every property name and description in a schema tree. */
function texts(schema: unknown, out: string[] = []): string[] {
  if (Array.isArray(schema)) for (const s of schema) texts(s, out);
  else if (schema && typeof schema === 'object') {
    for (const [key, value] of Object.entries(schema)) {
      if (key === 'properties' && value && typeof value === 'object') out.push(...Object.keys(value));
      if (key === 'description' && typeof value === 'string') out.push(value);
      texts(value, out);
    }
  }
  return out;
}

describe('PullZone (response)', () => {
  const valid = check(PullZone);

  it('has every field of spec 2.4, in the specification order, plus the reference-only fields', () => {
    const names = props(PullZone);
    for (const f of SPEC_FIELDS) expect(names).toContain(f);
    expect(names.filter((n) => SPEC_FIELDS.includes(n))).toEqual(SPEC_FIELDS);
    expect([...names].sort()).toEqual([...SPEC_FIELDS, ...REFERENCE_ONLY_FIELDS].sort());
    expect(names).toHaveLength(168);
  });

  it('requires every property and describes each one', () => {
    expect([...required(PullZone)].sort()).toEqual([...props(PullZone)].sort());
    for (const schema of [PullZone, Hostname, EdgeRule, EdgeRuleTrigger, EdgeRuleExtraAction, OptimizerClass, AiImageBlueprint]) {
      expect(required(schema).sort()).toEqual(props(schema).sort());
      for (const [name, p] of Object.entries(propsOf(schema))) expect(p.description, name).toMatch(/\S/);
    }
  });

  it('types fields as the specification says', () => {
    const p = propsOf(PullZone);
    expect(p['Id']).toMatchObject({ type: 'integer', format: 'int64' });
    expect(p['BurstSize']).toMatchObject({ type: 'integer', format: 'int32' });
    expect(p['MonthlyCharges']).toMatchObject({ type: 'number', format: 'decimal' });
    expect(p['LimitRatePerSecond']).toMatchObject({ type: 'number', format: 'double' });
    expect(p['Name']?.type).toEqual(['string', 'null']);
    expect(p['MiddlewareScriptId']?.type).toEqual(['integer', 'null']);
    expect(p['AllowedReferrers']?.type).toEqual(['array', 'null']);
    expect(p['Enabled']?.type).toBe('boolean');
    expect(p['Type']?.enum).toEqual([0, 1]);
    expect(p['OriginType']?.enum).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(p['EdgeScriptExecutionPhase']?.enum).toEqual([0, 1]);
    expect(p['LogForwardingProtocol']?.enum).toEqual([0, 1, 2, 3]);
    expect(p['OptimizerWatermarkPosition']?.enum).toEqual([0, 1, 2, 3, 4, 5]);
    expect(p['ShieldDDosProtectionType']?.enum).toEqual([0, 1, 2]);
    const h = propsOf(Hostname);
    expect(Object.keys(h)).toEqual([
      'Id',
      'Value',
      'ForceSSL',
      'IsSystemHostname',
      'IsManagedHostname',
      'HasCertificate',
      'Certificate',
      'CertificateKey',
      'CertificateKeyType',
      'CertificateProvisionType',
    ]);
    expect(h['Certificate']?.type).toBe('string');
  });

  it('accepts a new zone with its defaults', () => {
    const z = zone();
    expect(valid(z)).toBe(true);
    expect(z.Enabled).toBe(true);
    expect(z.Suspended).toBe(false);
    expect(z.CacheControlMaxAgeOverride).toBe(-1);
    expect([z.OptimizerImageQuality, z.OptimizerMobileImageQuality]).toEqual([85, 70]);
    expect([z.OptimizerDesktopMaxWidth, z.OptimizerMobileMaxWidth]).toEqual([1600, 800]);
    expect([z.OriginRetries, z.OriginConnectTimeout, z.OriginResponseTimeout]).toEqual([0, 10, 60]);
    expect(z.Hostnames).toEqual([newHostname({ id: 70, value: 'assets.edgeplane.test', isSystemHostname: true })]);
    expect(z.Hostnames?.[0]).toMatchObject({ IsSystemHostname: true, HasCertificate: true, ForceSSL: false, Certificate: '', CertificateKey: '' });
    expect(z.CnameDomain).toBe('assets.edgeplane.test');
    expect(z.ZoneSecurityKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(zone().ZoneSecurityKey).not.toBe(z.ZoneSecurityKey);
    expect(z.OriginType).toBe(0);
  });

  it('links a storage zone origin', () => {
    const z = newPullZone({
      id: 8,
      userId: 'u',
      name: 'files',
      originUrl: null,
      type: 1,
      storageZoneId: 12,
      systemHostname: { id: 80, value: 'files.edgeplane.test' },
      zoneSecurityKey: 'fixed',
    });
    expect(valid(z)).toBe(true);
    expect([z.StorageZoneId, z.OriginType, z.ZoneSecurityKey]).toEqual([12, 2, 'fixed']);
  });

  it('rejects out-of-range values and missing fields', () => {
    expect(valid({ ...zone(), EdgeRules: [rule] })).toBe(true);
    expect(valid({ ...zone(), EdgeRules: [{ ...rule, ActionType: 35 }] })).toBe(false);
    expect(valid({ ...zone(), EdgeRules: [{ ...rule, ActionType: 37 }] })).toBe(true);
    expect(valid({ ...zone(), Type: 2 })).toBe(false);
    expect(valid({ ...zone(), EdgeScriptExecutionPhase: 2 })).toBe(false);
    expect(valid({ ...zone(), OptimizerClasses: [{ Name: 'thumb', Properties: { width: '200' } }] })).toBe(true);
    const { CacheVersion: _omit, ...missing } = zone();
    expect(valid(missing)).toBe(false);
  });

  it('serializes through Fastify unchanged', async () => {
    const z = {
      ...zone(),
      EdgeRules: [rule],
      OptimizerClasses: [{ Name: 'thumb', Properties: { width: '200', quality: '60' } }],
      VendorAiImageBlueprints: [{ Name: 'avatar', Properties: { PrePrompt: 'a drawing of' } }],
    };
    const app = Fastify();
    app.get('/z', { schema: { response: { 200: PullZone } } }, async () => ({ ...z, Secret: 'x' }));
    const res = await app.inject({ method: 'GET', url: '/z' });
    await app.close();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(z);
  });
});

describe('EdgeRule', () => {
  it('bounds the action, trigger and matching types to the reference ranges', () => {
    const valid = check(EdgeRule);
    expect(valid(rule)).toBe(true);
    expect(Object.keys(EDGE_RULE_ACTION_TYPES)).toHaveLength(36);
    expect(valid({ ...rule, TriggerMatchingType: 3 })).toBe(false);
    expect(valid({ ...rule, Triggers: [{ ...rule.Triggers[0], Type: 13 }] })).toBe(true);
    expect(valid({ ...rule, Triggers: [{ ...rule.Triggers[0], Type: 14 }] })).toBe(false);
    expect(valid({ ...rule, Triggers: [{ ...rule.Triggers[0], PatternMatchingType: 3 }] })).toBe(false);
    expect(valid({ ...rule, ExtraActions: [{ ...rule.ExtraActions[0], ActionType: -1 }] })).toBe(false);
  });
});

describe('PullZoneUpdateRequest', () => {
  const valid = check(PullZoneUpdateRequest);

  it('takes every settable field, all optional', () => {
    const settable = props(PullZone).filter((n) => !(PULL_ZONE_READ_ONLY_FIELDS as readonly string[]).includes(n));
    expect(props(PullZoneUpdateRequest).sort()).toEqual([...settable, ...REQUEST_ONLY_FIELDS].sort());
    expect(props(PullZoneUpdateRequest)).toHaveLength(145);
    expect(required(PullZoneUpdateRequest)).toEqual([]);
    expect(valid({})).toBe(true);
    for (const [name, p] of Object.entries(propsOf(PullZoneUpdateRequest))) expect(p.description, name).toMatch(/\S/);
  });

  it('accepts null where the reference does', () => {
    expect(valid({ OriginUrl: null, OptimizerImageQuality: null, Type: null, BlockedIps: null, EnableLogging: null })).toBe(true);
    expect(valid({ PreloadingScreenShowOnFirstVisit: null })).toBe(false);
    expect(valid({ PreloadingScreenShowOnFirstVisit: true })).toBe(true);
  });

  it('enforces the part 8 optimizer bounds', () => {
    for (const f of ['OptimizerImageQuality', 'OptimizerMobileImageQuality']) {
      expect(valid({ [f]: 0 })).toBe(false);
      expect(valid({ [f]: 101 })).toBe(false);
      expect(valid({ [f]: 1 })).toBe(true);
      expect(valid({ [f]: 100 })).toBe(true);
    }
    for (const f of ['OptimizerDesktopMaxWidth', 'OptimizerMobileMaxWidth']) {
      expect(valid({ [f]: -1 })).toBe(false);
      expect(valid({ [f]: 5001 })).toBe(false);
      expect(valid({ [f]: 0 })).toBe(true);
      expect(valid({ [f]: 5000 })).toBe(true);
    }
    expect(valid({ OptimizerImageQuality: 50.5 })).toBe(false);
  });

  it('enforces every enum range', () => {
    const enums = Object.entries(propsOf(PullZoneUpdateRequest)).filter(([, p]) => Array.isArray(p.enum));
    expect(enums.map(([name]) => name).sort()).toEqual([
      'EdgeScriptExecutionPhase',
      'IpFamilyPolicy',
      'LogAnonymizationType',
      'LogFormat',
      'LogForwardingFormat',
      'LogForwardingProtocol',
      'OptimizerWatermarkPosition',
      'OriginType',
      'PermaCacheType',
      'PreloadingScreenTheme',
      'ShieldDDosProtectionType',
      'StickySessionType',
      'TlsSecurityLevel',
      'Type',
    ]);
    for (const [name, p] of enums) {
      const values = (p.enum ?? []).filter((v): v is number => typeof v === 'number');
      expect(valid({ [name]: Math.max(...values) }), name).toBe(true);
      expect(valid({ [name]: Math.max(...values) + 1 }), name).toBe(false);
      expect(valid({ [name]: -1 }), name).toBe(false);
    }
  });

  it('rejects read-only and unknown fields', () => {
    expect(valid({ Id: 1 })).toBe(false);
    expect(valid({ ZoneSecurityKey: 'k' })).toBe(false);
    expect(valid({ Bogus: true })).toBe(false);
  });

  it('types request values as nullable partial settings', () => {
    const body: PullZoneUpdateRequestT = { OptimizerImageQuality: null, Type: 1, PreloadingScreenShowOnFirstVisit: true };
    // @ts-expect-error: never null in a request
    const bad: PullZoneUpdateRequestT = { PreloadingScreenShowOnFirstVisit: null };
    expect([body, bad]).toHaveLength(2);
  });
});

describe('PullZoneAddRequest', () => {
  const valid = check(PullZoneAddRequest);

  it('requires a non-empty Name and takes every setting', () => {
    expect(required(PullZoneAddRequest)).toEqual(['Name']);
    expect(props(PullZoneAddRequest).sort()).toEqual(['Name', ...props(PullZoneUpdateRequest)].sort());
    const body: PullZoneAddRequestT = { Name: 'assets', OriginUrl: 'https://origin.example.com', Type: 0 };
    expect(valid(body)).toBe(true);
    expect(valid({ Name: 'files', StorageZoneId: 12, OriginType: 2, OptimizerImageQuality: 90 })).toBe(true);
    expect(valid({ Name: '' })).toBe(false);
    expect(valid({ OriginUrl: 'https://origin.example.com' })).toBe(false);
    expect(valid({ Name: 'x', OptimizerImageQuality: 0 })).toBe(false);
    expect(valid({ Name: 'x', Bogus: 1 })).toBe(false);
  });
});

describe('wording', () => {
  it('carries no vendor words in property names or descriptions', () => {
    const all = [PullZone, PullZoneUpdateRequest, PullZoneAddRequest].flatMap((s) => texts(s));
    expect(all.length).toBeGreaterThan(400);
    for (const t of all) expect(t).not.toMatch(VENDOR_WORDS);
    for (const s of [PullZone, PullZoneUpdateRequest, PullZoneAddRequest]) expect(JSON.stringify(s)).not.toMatch(VENDOR_WORDS);
  });
});
