/**
 * Pull zones (spec 2.4; operation 4.5) and the bodies that create and change them.
 *
 * Every fact is declared once, in `zoneProperties`: the response `PullZone` is that table as is
 * (every property required, because the server always sends every field); the update body takes
 * the settable subset, optional and nullable; the add body is the update body plus `Name`.
 * Enums travel as integers; the `*_TYPES`-style maps below give each wire value its name, and the
 * names are repeated in each field's description.
 *
 * Where the specification and the platform's reference model differ, the specification wins
 * (EdgeScriptExecutionPhase is 0 or 1; hostname, edge rule and optimizer class strings are never
 * null). Fields the reference has and the specification does not list (IpFamilyPolicy,
 * TlsSecurityLevel, LoadBalancerId; hostname CertificateKeyType and CertificateProvisionType) are
 * included with the reference's types.
 */
import { Type, type Static, type TOptional, type TSchema, type TUnsafe } from 'typebox';
import { Decimal, Double, Int32, Int64, IntEnum, Nullable } from './common.js';

// ---------------------------------------------------------------------------------------------
// Enumerations: wire value -> name
// ---------------------------------------------------------------------------------------------

export const PULL_ZONE_TYPES = { 0: 'Premium', 1: 'Volume' } as const;
export const PULL_ZONE_ORIGIN_TYPES = {
  0: 'OriginUrl',
  1: 'DnsAccelerate',
  2: 'StorageZone',
  3: 'LoadBalancer',
  4: 'EdgeScript',
  5: 'ManagedContainers',
  6: 'PushZone',
} as const;
/** The specification allows 0 and 1 only (the reference also lists 2, a pre-cache phase). */
export const EDGE_SCRIPT_EXECUTION_PHASES = { 0: 'Cache', 1: 'LoadBalancer' } as const;
export const IP_FAMILY_POLICIES = { 0: 'IPv4Only', 1: 'DualStack', 2: 'DualStackPreferIPv6', 3: 'IPv6Only' } as const;
export const TLS_SECURITY_LEVELS = { 0: 'Legacy', 1: 'Compatible', 2: 'ModernOnly' } as const;
export const PERMA_CACHE_TYPES = { 0: 'Automatic', 1: 'Manual' } as const;
export const LOG_ANONYMIZATION_TYPES = { 0: 'OneDigit', 1: 'Drop' } as const;
export const LOG_FORMATS = { 0: 'Plain', 1: 'JSON' } as const;
export const LOG_FORWARDING_PROTOCOLS = { 0: 'UDP', 1: 'TCP', 2: 'TCPEncrypted', 3: 'HostedLogService' } as const;
export const PRELOADING_SCREEN_THEMES = { 0: 'Light', 1: 'Dark' } as const;
export const DDOS_PROTECTION_TYPES = { 0: 'DetectOnly', 1: 'ActiveStandard', 2: 'ActiveAggressive' } as const;
export const STICKY_SESSION_TYPES = { 0: 'Off', 1: 'On' } as const;
export const WATERMARK_POSITIONS = {
  0: 'BottomLeft',
  1: 'BottomRight',
  2: 'TopLeft',
  3: 'TopRight',
  4: 'Center',
  5: 'CenterStretch',
} as const;
export const CERTIFICATE_KEY_TYPES = { 0: 'Ecdsa', 1: 'Rsa' } as const;
export const CERTIFICATE_PROVISION_TYPES = { 0: 'Unknown', 1: 'Http01', 2: 'Dns01', 3: 'Custom', 4: 'Managed' } as const;
/** Values 35 and 36 are unassigned. */
export const EDGE_RULE_ACTION_TYPES = {
  0: 'ForceSSL',
  1: 'Redirect',
  2: 'OriginUrl',
  3: 'OverrideCacheTime',
  4: 'BlockRequest',
  5: 'SetResponseHeader',
  6: 'SetRequestHeader',
  7: 'ForceDownload',
  8: 'DisableTokenAuthentication',
  9: 'EnableTokenAuthentication',
  10: 'OverrideCacheTimePublic',
  11: 'IgnoreQueryString',
  12: 'DisableOptimizer',
  13: 'ForceCompression',
  14: 'SetStatusCode',
  15: 'BypassPermaCache',
  16: 'OverrideBrowserCacheTime',
  17: 'OriginStorage',
  18: 'SetNetworkRateLimit',
  19: 'SetConnectionLimit',
  20: 'SetRequestsPerSecondLimit',
  21: 'RunEdgeScript',
  22: 'OriginManagedContainers',
  23: 'DisableWAF',
  24: 'RetryOrigin',
  25: 'OverrideBrowserCacheResponseHeader',
  26: 'RemoveBrowserCacheResponseHeader',
  27: 'DisableShieldChallenge',
  28: 'DisableShield',
  29: 'DisableShieldBotDetection',
  30: 'BypassRequestSigning',
  31: 'DisableShieldAccessLists',
  32: 'DisableShieldRateLimiting',
  33: 'EnableRequestCoalescing',
  34: 'DisableRequestCoalescing',
  37: 'StripCookiesClientToOrigin',
} as const;
export const EDGE_RULE_TRIGGER_TYPES = {
  0: 'Url',
  1: 'RequestHeader',
  2: 'ResponseHeader',
  3: 'UrlExtension',
  4: 'CountryCode',
  5: 'RemoteIP',
  6: 'UrlQueryString',
  7: 'RandomChance',
  8: 'StatusCode',
  9: 'RequestMethod',
  10: 'CookieValue',
  11: 'CountryStateCode',
  12: 'OriginRetryAttemptCount',
  13: 'OriginConnectionError',
} as const;
export const MATCHING_TYPES = { 0: 'MatchAny', 1: 'MatchAll', 2: 'MatchNone' } as const;

/** The wire values of an enum map, e.g. `0 | 1` for `PULL_ZONE_TYPES`. */
export type EnumValue<M extends Readonly<Record<number, string>>> = keyof M & number;

/** An integer enum over the keys of `names`, its description ending with the value names. */
function namedEnum<M extends Readonly<Record<number, string>>>(names: M, description: string) {
  const entries = Object.entries(names);
  const values = entries.map(([value]) => Number(value)) as EnumValue<M>[];
  return IntEnum(values, { description: `${description} ${entries.map(([v, n]) => `${v} = ${n}`).join(', ')}.` });
}

const StringList = (description: string) => Nullable(Type.Array(Type.String()), { description });
const NullableString = (description: string) => Nullable(Type.String(), { description });
const Flag = (description: string) => Type.Boolean({ description });

// ---------------------------------------------------------------------------------------------
// Sub-objects
// ---------------------------------------------------------------------------------------------

export const Hostname = Type.Object(
  {
    Id: Int64({ description: 'Identifier of the hostname.' }),
    Value: Type.String({ description: 'The domain name served, e.g. `cdn.example.com`.' }),
    ForceSSL: Flag('Redirect plain-HTTP requests for this hostname to HTTPS.'),
    IsSystemHostname: Flag('True for the hostname the platform generated with the zone; it cannot be removed.'),
    IsManagedHostname: Flag('True when the platform itself manages the hostname rather than the account.'),
    HasCertificate: Flag('True when a TLS certificate is installed for the hostname.'),
    Certificate: Type.String({
      description: 'The installed certificate, Base64Url-encoded; empty unless the read asked for certificates (`includeCertificate=true`).',
    }),
    CertificateKey: Type.String({
      description: 'Private key of the certificate, Base64Url-encoded (a credential); empty unless the read asked for certificates.',
    }),
    CertificateKeyType: namedEnum(CERTIFICATE_KEY_TYPES, 'Key algorithm of certificates issued automatically for the hostname:'),
    CertificateProvisionType: namedEnum(CERTIFICATE_PROVISION_TYPES, 'How the installed certificate was obtained:'),
  },
  { additionalProperties: false, description: 'A hostname the zone answers on.' },
);

const actionProperties = {
  ActionType: namedEnum(EDGE_RULE_ACTION_TYPES, 'What the action does:'),
  ActionParameter1: Type.String({ description: 'First input of the action; its meaning depends on the action type (e.g. the target URL of a redirect).' }),
  ActionParameter2: Type.String({ description: 'Second input of the action, depending on the action type (e.g. a header value).' }),
  ActionParameter3: Type.String({ description: 'Third input of the action, depending on the action type.' }),
};

export const EdgeRuleExtraAction = Type.Object(actionProperties, {
  additionalProperties: false,
  description: 'A further action run when the rule matches, after the main one.',
});

export const EdgeRuleTrigger = Type.Object(
  {
    Type: namedEnum(EDGE_RULE_TRIGGER_TYPES, 'What the trigger inspects:'),
    PatternMatches: Type.Array(Type.String(), { description: 'Patterns compared with the inspected value; wildcards are allowed.' }),
    PatternMatchingType: namedEnum(MATCHING_TYPES, 'How the pattern results combine:'),
    Parameter1: Type.String({ description: 'Extra input of the trigger, depending on its type (e.g. the header or cookie name).' }),
  },
  { additionalProperties: false, description: 'A condition of an edge rule.' },
);

export const EdgeRule = Type.Object(
  {
    Guid: Type.String({ description: 'Identifier of the rule, a GUID.' }),
    ...actionProperties,
    Triggers: Type.Array(EdgeRuleTrigger, { description: 'Conditions that decide whether the rule applies to a request.' }),
    ExtraActions: Type.Array(EdgeRuleExtraAction, { description: 'Further actions run together with the main one.' }),
    TriggerMatchingType: namedEnum(MATCHING_TYPES, 'How the trigger results combine:'),
    Description: Type.String({ description: 'Free text naming the rule, for people.' }),
    Enabled: Flag('Whether the rule is applied.'),
    OrderIndex: Int32({ description: 'Position of the rule in execution order; lower runs first.' }),
    ReadOnly: Flag('True when the rule is maintained by the platform and cannot be changed or deleted.'),
  },
  { additionalProperties: false, description: 'An edge rule: actions applied to requests that match its triggers.' },
);

const namedSettings = (what: string, nameDescription: string) =>
  Type.Object(
    {
      Name: Type.String({ description: nameDescription }),
      Properties: Type.Record(Type.String(), Type.String(), { description: `Settings of the ${what}, as name/value pairs.` }),
    },
    { additionalProperties: false, description: `A named ${what}.` },
  );

export const OptimizerClass = namedSettings('optimizer class', 'Name of the class, used in the `class` query parameter of image URLs.');
export const AiImageBlueprint = namedSettings('AI image blueprint', 'Name of the blueprint, used when requesting generated images.');

// ---------------------------------------------------------------------------------------------
// The pull zone: one table, in the specification's order
// ---------------------------------------------------------------------------------------------

const zoneProperties = {
  // Identity, origin and links
  Id: Int64({ description: 'Identifier of the pull zone.' }),
  Name: NullableString('Name of the zone; also the first label of its system hostname.'),
  OriginUrl: NullableString('URL files are fetched from when they are not in cache.'),
  Enabled: Flag('True unless the zone hit a resource limit or the owning account ran out of funds.'),
  Suspended: Flag('True while the zone is suspended and serves no traffic.'),
  Hostnames: Nullable(Type.Array(Hostname), { description: 'Hostnames the zone answers on, the system hostname included.' }),
  StorageZoneId: Int64({ description: 'Storage zone used as origin; 0 when none.' }),
  EdgeScriptId: Int64({ description: 'Edge script attached to the zone; 0 when none.' }),
  EdgeScriptExecutionPhase: namedEnum(EDGE_SCRIPT_EXECUTION_PHASES, 'Request phase in which the edge script runs:'),
  MiddlewareScriptId: Nullable(Int64(), { description: 'Middleware script attached to the zone; null when none.' }),
  ManagedContainersAppId: NullableString('Container application the zone fronts; null when none.'),
  ManagedContainersEndpointId: NullableString('Endpoint of that container application; null when none.'),
  LoadBalancerId: Nullable(Int64(), { description: 'Load balancer used as origin when OriginType is LoadBalancer; null otherwise.' }),
  VideoLibraryId: Int64({ description: 'Video library the zone delivers; 0 when none.' }),
  DnsRecordId: Int64({ description: 'DNS record the zone accelerates; 0 when none.' }),
  DnsZoneId: Int64({ description: 'DNS zone of that record; 0 when none.' }),
  DnsRecordValue: NullableString('Cached value of the accelerated DNS record.'),
  UserId: NullableString('Identifier of the owning account.'),
  CacheVersion: Int64({ description: "Version counter of the zone's cache." }),
  Type: namedEnum(PULL_ZONE_TYPES, 'Network tier the zone is delivered from:'),
  OriginType: namedEnum(PULL_ZONE_ORIGIN_TYPES, 'Kind of origin the zone pulls from:'),
  OriginLinkValue: NullableString('Short display form of the origin connection (URL or linked resource).'),
  CnameDomain: NullableString('Domain that custom hostnames must point at with a CNAME record.'),

  // Access control
  AllowedReferrers: StringList('Referrer hostnames allowed to fetch files; when empty, every referrer is allowed.'),
  BlockedReferrers: StringList('Referrer hostnames refused access; when empty, none is refused.'),
  BlockedIps: StringList('Client IP addresses refused access; when empty, none is refused.'),
  BlockNoneReferrer: Flag('Refuse requests that carry no Referer header (direct access).'),
  BlockedCountries: StringList('Countries refused access, as two-letter ISO 3166-1 alpha-2 codes.'),
  BudgetRedirectedCountries: StringList('Countries served from the lower-cost network, as two-letter ISO 3166-1 alpha-2 codes.'),
  BlockRootPathAccess: Flag('Answer requests for the root path `/` with 403.'),
  BlockPostRequests: Flag('Refuse POST requests.'),
  ZoneSecurityEnabled: Flag('Require signed URLs (token authentication).'),
  ZoneSecurityKey: NullableString('Secret that URL tokens are signed with (a credential).'),
  ZoneSecurityIncludeHashRemoteIP: Flag('Bind URL tokens to the client IP address.'),
  EnableGeoZoneUS: Flag('Serve from points of presence in North America.'),
  EnableGeoZoneEU: Flag('Serve from points of presence in Europe.'),
  EnableGeoZoneASIA: Flag('Serve from points of presence in Asia and Oceania.'),
  EnableGeoZoneSA: Flag('Serve from points of presence in South America.'),
  EnableGeoZoneAF: Flag('Serve from points of presence in Africa.'),
  RoutingFilters: StringList('Routing filters that restrict which points of presence serve the zone (`all` for no restriction).'),
  IpFamilyPolicy: namedEnum(IP_FAMILY_POLICIES, 'IP address families used:'),

  // Rate and bandwidth
  MonthlyBandwidthLimit: Int64({ description: 'Bytes the zone may deliver per month; 0 for no limit.' }),
  MonthlyBandwidthUsed: Int64({ description: 'Bytes delivered so far this month.' }),
  MonthlyCharges: Decimal({ description: 'Amount charged for the zone so far this month.' }),
  BurstSize: Int32({ description: 'Requests over the rate limit that are delayed rather than refused; beyond this count they are refused.' }),
  RequestLimit: Int32({ description: 'Requests per second allowed from one IP address; 0 for no limit.' }),
  LimitRatePerSecond: Double({ description: 'Download speed cap per connection, in kB/s; 0 for no cap.' }),
  LimitRateAfter: Double({ description: 'Amount of data delivered at full speed before the speed cap applies.' }),
  ConnectionLimitPerIPCount: Int32({ description: 'Simultaneous connections allowed from one IP address; 0 for no limit.' }),
  PriceOverride: Decimal({ description: 'Custom delivery price for the zone, per byte; 0 when the standard price applies.' }),
  OptimizerPricing: Decimal({ description: 'Monthly price of the optimizer for the zone.' }),
  EUUSDiscount: Int32({ description: 'Zone-specific price discount for Europe and North America.' }),
  SouthAmericaDiscount: Int32({ description: 'Zone-specific price discount for South America.' }),
  AfricaDiscount: Int32({ description: 'Zone-specific price discount for Africa.' }),
  AsiaOceaniaDiscount: Int32({ description: 'Zone-specific price discount for Asia and Oceania.' }),

  // Caching and origin behaviour
  IgnoreQueryStrings: Flag('Leave the query string out of the cache key.'),
  EnableQueryStringOrdering: Flag('Sort query parameters before building the cache key, so their order does not matter.'),
  QueryStringVaryParameters: StringList('Query parameters that form the cache key; when empty, all of them do.'),
  CacheControlMaxAgeOverride: Int64({ description: "Edge cache lifetime in seconds, overriding the origin's Cache-Control; -1 follows the origin." }),
  CacheControlPublicMaxAgeOverride: Int64({ description: "Cache lifetime in seconds announced to browsers; -1 passes on the origin's value." }),
  EnableCacheSlice: Flag('Cache large files in slices (suited to video).'),
  EnableSmartCache: Flag('Decide caching from the content type when the origin gives no cache headers.'),
  CacheErrorResponses: Flag('Cache error responses from the origin briefly.'),
  UseStaleWhileUpdating: Flag('Serve the stale copy while a fresh one is fetched.'),
  UseStaleWhileOffline: Flag('Serve the stale copy while the origin is unreachable.'),
  UseBackgroundUpdate: Flag('Refresh expired files in the background.'),
  EnableWebPVary: Flag('Keep separate cache entries for clients that accept WebP.'),
  EnableAvifVary: Flag('Keep separate cache entries for clients that accept AVIF.'),
  EnableCountryCodeVary: Flag('Keep separate cache entries per client country.'),
  EnableCountryStateCodeVary: Flag('Keep separate cache entries per client country and state.'),
  EnableMobileVary: Flag('Keep separate cache entries for mobile and desktop clients.'),
  EnableCookieVary: Flag('Keep separate cache entries per value of the cookies in CookieVaryParameters.'),
  EnableHostnameVary: Flag('Keep separate cache entries per requested hostname.'),
  CookieVaryParameters: StringList('Cookies whose values form the cache key; when empty, cookies are not used.'),
  CacheKeyHeaders: NullableString('Request headers whose values form the cache key, comma-separated.'),
  AddHostHeader: Flag('Send the requested hostname to the origin as the Host header.'),
  OriginHostHeader: NullableString("Host header sent to the origin; empty for the origin URL's host."),
  AddCanonicalHeader: Flag('Add a `Link: rel="canonical"` header pointing at the origin URL.'),
  FollowRedirects: Flag('Follow redirects returned by the origin instead of passing them on.'),
  VerifyOriginSSL: Flag("Check the origin's TLS certificate."),
  OriginRetries: Int32({ description: 'How many times a failed origin request is retried.' }),
  OriginConnectTimeout: Int32({ description: 'Seconds to wait for a connection to the origin before failing or retrying.' }),
  OriginResponseTimeout: Int32({ description: "Seconds to wait for the origin's response before failing or retrying." }),
  OriginRetry5XXResponses: Flag('Retry when the origin answers with a 5xx status.'),
  OriginRetryConnectionTimeout: Flag('Retry when connecting to the origin times out.'),
  OriginRetryResponseTimeout: Flag("Retry when the origin's response times out."),
  OriginRetryDelay: Int32({ description: 'Seconds to wait before retrying an origin request.' }),
  EnableOriginShield: Flag('Route origin requests through a single shield location to offload the origin.'),
  OriginShieldZoneCode: NullableString('Code of the shield location.'),
  OriginShieldEnableConcurrencyLimit: Flag('Cap concurrent requests from the shield to the origin.'),
  OriginShieldMaxConcurrentRequests: Int32({ minimum: 1, maximum: 10000, description: 'Concurrent origin requests allowed when the cap is on.' }),
  OriginShieldQueueMaxWaitTime: Int32({ description: 'Seconds a request may wait in the shield queue.' }),
  OriginShieldMaxQueuedRequests: Int32({ minimum: 0, maximum: 30000, description: 'Requests that may wait in the shield queue.' }),
  EnableRequestCoalescing: Flag('Merge simultaneous requests for the same uncached file into one origin request.'),
  RequestCoalescingTimeout: Int32({ description: 'Seconds coalesced requests wait for the first one (lock time).' }),
  EnableSafeHop: Flag('Retry failed origin requests according to the OriginRetry settings.'),
  PermaCacheStorageZoneId: Int64({ description: 'Storage zone that keeps a permanent copy of cached files; 0 when none.' }),
  PermaCacheType: namedEnum(
    PERMA_CACHE_TYPES,
    'How the permanent cache is filled (Automatic: the edge writes what it fetches there; Manual: the edge only reads what was put there):',
  ),
  DisableCookies: Flag('Strip cookies from origin responses so that they can be cached.'),
  EnableAccessControlOriginHeader: Flag('Add CORS headers to responses.'),
  AccessControlOriginHeaderExtensions: StringList('File extensions whose responses get CORS headers.'),
  EnableWebSockets: Flag('Allow WebSocket connections through the zone.'),
  MaxWebSocketConnections: Int32({ description: 'Simultaneous WebSocket connections allowed over the whole zone.' }),
  RequestSigningEnabled: Flag('Sign origin requests for an object store that requires signed requests.'),
  RequestSigningKey: NullableString('Access key ID used to sign origin requests (a credential).'),
  RequestSigningSecret: NullableString('Secret key used to sign origin requests (a credential).'),
  RequestSigningRegionName: NullableString('Region name included in the request signature.'),

  // TLS and certificates
  EnableTLS1: Flag('Accept TLS 1.0 connections.'),
  EnableTLS1_1: Flag('Accept TLS 1.1 connections.'),
  TlsSecurityLevel: namedEnum(TLS_SECURITY_LEVELS, 'Minimum TLS security profile enforced:'),
  EnableAutoSSL: Flag('Issue a certificate automatically for each hostname added.'),
  DisableBuiltInCertificateIssuance: Flag('Turn off the built-in certificate issuance; its validation requests go to the origin instead.'),

  // Logging
  EnableLogging: Flag('Keep access logs for the zone.'),
  EnableExtendedLogging: Flag('Record extra detail in the access logs.'),
  LoggingIPAnonymizationEnabled: Flag('Anonymize client IP addresses in the logs.'),
  LogAnonymizationType: namedEnum(LOG_ANONYMIZATION_TYPES, 'How addresses are anonymized:'),
  LogFormat: namedEnum(LOG_FORMATS, 'Format of stored log lines:'),
  LoggingSaveToStorage: Flag('Store the logs permanently in a storage zone.'),
  LoggingStorageZoneId: Int64({ description: 'Storage zone that receives the logs; 0 when none.' }),
  LogForwardingEnabled: Flag('Send log lines to an external collector as they are written.'),
  LogForwardingHostname: NullableString('Host name of the log collector.'),
  LogForwardingPort: Int32({ description: 'Port of the log collector.' }),
  LogForwardingToken: NullableString('Token sent with forwarded log lines (a credential).'),
  LogForwardingProtocol: namedEnum(LOG_FORWARDING_PROTOCOLS, 'Transport used to forward logs:'),
  LogForwardingFormat: namedEnum(LOG_FORMATS, 'Format of forwarded log lines:'),

  // Error pages and preloading screen
  ErrorPageEnableCustomCode: Flag('Serve the custom HTML in ErrorPageCustomCode on error pages.'),
  ErrorPageCustomCode: NullableString('Custom HTML of the error pages.'),
  ErrorPageEnableStatusWidget: Flag('Show a service status widget on error pages.'),
  ErrorPageStatusCode: NullableString('Identifier of the status page the widget shows (letters, digits and inner hyphens; any other is not shown).'),
  ErrorPageWhitelabel: Flag("Leave the platform's branding off error pages."),
  PreloadingScreenEnabled: Flag('Show a loading screen while pages load.'),
  PreloadingScreenShowOnFirstVisit: Flag("Show the loading screen on a visitor's first page load, however fast the origin."),
  PreloadingScreenCode: NullableString('Custom HTML of the loading screen.'),
  PreloadingScreenLogoUrl: NullableString('URL of the logo shown on the loading screen.'),
  PreloadingScreenCodeEnabled: Flag('Use the custom HTML in PreloadingScreenCode.'),
  PreloadingScreenTheme: namedEnum(PRELOADING_SCREEN_THEMES, 'Color theme of the loading screen:'),
  PreloadingScreenDelay: Int32({ minimum: 0, maximum: 10000, description: 'Milliseconds of loading before the screen appears.' }),

  // DDoS protection and sticky sessions
  ShieldDDosProtectionEnabled: Flag('Turn on DDoS protection.'),
  ShieldDDosProtectionType: namedEnum(DDOS_PROTECTION_TYPES, 'DDoS protection mode:'),
  StickySessionType: namedEnum(STICKY_SESSION_TYPES, 'Whether a client keeps reaching the same origin:'),
  StickySessionCookieName: NullableString('Cookie that pins a client to an origin.'),
  StickySessionClientHeaders: NullableString('Request headers that identify a client, comma-separated.'),

  // Optimizer
  OptimizerEnabled: Flag('Turn on the optimizer (images, CSS, JavaScript).'),
  OptimizerTunnelEnabled: Flag("Fetch through the optimizer's origin tunnel."),
  OptimizerEnableWebP: Flag('Convert images to WebP for clients that accept it.'),
  OptimizerPrerenderHtml: Flag('Prerender HTML for search-engine crawlers.'),
  OptimizerEnableManipulationEngine: Flag('Allow resizing and other image transformations through query parameters.'),
  OptimizerMinifyCSS: Flag('Minify CSS files.'),
  OptimizerMinifyJavaScript: Flag('Minify JavaScript files.'),
  OptimizerWatermarkEnabled: Flag('Add a watermark to images.'),
  OptimizerAutomaticOptimizationEnabled: Flag("Resize and compress images automatically for the client's device."),
  OptimizerEnableUpscaling: Flag('Allow images to be enlarged beyond their original size.'),
  OptimizerForceClasses: Flag('Allow image transformations only through the classes in OptimizerClasses.'),
  OptimizerStaticHtmlEnabled: Flag('Serve static HTML copies of content-management-system pages.'),
  OptimizerDesktopMaxWidth: Int32({ minimum: 0, maximum: 5000, description: 'Largest image width, in pixels, sent to desktop clients.' }),
  OptimizerMobileMaxWidth: Int32({ minimum: 0, maximum: 5000, description: 'Largest image width, in pixels, sent to mobile clients.' }),
  OptimizerImageQuality: Int32({ minimum: 1, maximum: 100, description: 'Compression quality of images for desktop clients (1 to 100).' }),
  OptimizerMobileImageQuality: Int32({ minimum: 1, maximum: 100, description: 'Compression quality of images for mobile clients (1 to 100).' }),
  OptimizerWatermarkUrl: NullableString('URL of the watermark image.'),
  OptimizerWatermarkPosition: namedEnum(WATERMARK_POSITIONS, 'Where the watermark is placed:'),
  OptimizerWatermarkOffset: Double({ description: 'Distance of the watermark from the image border.' }),
  OptimizerWatermarkMinImageSize: Int32({ description: 'Smallest image size, in pixels, that receives a watermark.' }),
  OptimizerClasses: Nullable(Type.Array(OptimizerClass), { description: 'Named transformation presets.' }),
  OptimizerStaticHtmlCmsPath: NullableString('Path that an edge rule exempts from the permanent cache for static HTML.'),
  OptimizerStaticHtmlCmsBypassCookie: NullableString('Cookie whose presence exempts a request from the permanent cache for static HTML.'),
  EnableVendorImageAi: Flag('Turn on AI image generation.'),
  VendorAiImageBlueprints: Nullable(Type.Array(AiImageBlueprint), { description: 'Named presets for AI image generation.' }),

  // Edge rules
  EdgeRules: Nullable(Type.Array(EdgeRule), { description: 'Edge rules of the zone, in execution order.' }),
};

type ZoneProperties = typeof zoneProperties;

/**
 * The specification's groups of settings (section 2.4), each named with the first of its fields in
 * zoneProperties' order: the update body carries them as `x-groups` in the OpenAPI document, and
 * the web console shows the settings so. A field added to a group's run of fields joins it.
 */
const SETTING_GROUP_STARTS: readonly (readonly [group: string, first: keyof ZoneProperties])[] = [
  ['Origin', 'Id'],
  ['Access', 'AllowedReferrers'],
  ['Limits', 'MonthlyBandwidthLimit'],
  ['Caching', 'IgnoreQueryStrings'],
  ['TLS', 'EnableTLS1'],
  ['Logging', 'EnableLogging'],
  ['Error pages', 'ErrorPageEnableCustomCode'],
  ['DDoS and sessions', 'ShieldDDosProtectionEnabled'],
  ['Optimizer', 'OptimizerEnabled'],
  ['Edge rules', 'EdgeRules'],
];
/** The request-only settings' groups (they are not in zoneProperties' runs). */
const REQUEST_ONLY_GROUPS: Record<string, string> = { DnsOriginPort: 'Origin', DnsOriginScheme: 'Origin', CacheControlBrowserMaxAgeOverride: 'Caching' };

function settingGroups(settable: readonly string[]): Record<string, string[]> {
  const groups: Record<string, string[]> = Object.fromEntries(SETTING_GROUP_STARTS.map(([group]) => [group, []]));
  let group = SETTING_GROUP_STARTS[0]![0];
  for (const name of Object.keys(zoneProperties)) {
    group = SETTING_GROUP_STARTS.find(([, first]) => first === name)?.[0] ?? group;
    if (settable.includes(name)) groups[group]!.push(name);
  }
  for (const [name, named] of Object.entries(REQUEST_ONLY_GROUPS)) groups[named]!.push(name);
  return Object.fromEntries(Object.entries(groups).filter(([, names]) => names.length > 0));
}

/** A pull zone as returned. Every property is always sent. */
export const PullZone = Type.Object(zoneProperties, { additionalProperties: false, description: 'A pull zone.' });

// ---------------------------------------------------------------------------------------------
// Request bodies
// ---------------------------------------------------------------------------------------------

/** Response fields no request may set: identity, usage, billing and links kept by the platform. */
export const PULL_ZONE_READ_ONLY_FIELDS = [
  'Id',
  'Name',
  'Enabled',
  'Suspended',
  'Hostnames',
  'ZoneSecurityKey',
  'MonthlyBandwidthUsed',
  'MonthlyCharges',
  'PriceOverride',
  'OptimizerPricing',
  'EdgeRules',
  'CnameDomain',
  'VideoLibraryId',
  'DnsRecordId',
  'DnsZoneId',
  'DnsRecordValue',
  'OriginLinkValue',
  'EUUSDiscount',
  'SouthAmericaDiscount',
  'AfricaDiscount',
  'AsiaOceaniaDiscount',
  'UserId',
  'CacheVersion',
  'EnableExtendedLogging',
  // Set from the container side (an endpoint's cdn.pullZoneId), so both sides always agree.
  'ManagedContainersAppId',
  'ManagedContainersEndpointId',
] as const satisfies readonly (keyof ZoneProperties)[];

/** Settings a request may send but may not set to null (as in the reference). */
const NEVER_NULL_SETTINGS = ['PreloadingScreenShowOnFirstVisit'] as const satisfies readonly (keyof ZoneProperties)[];

type SettingKey = Exclude<keyof ZoneProperties, (typeof PULL_ZONE_READ_ONLY_FIELDS)[number]>;
type NeverNullKey = (typeof NEVER_NULL_SETTINGS)[number];
type SettingProperties = {
  [K in SettingKey]: K extends NeverNullKey ? TOptional<ZoneProperties[K]> : TOptional<TUnsafe<Static<ZoneProperties[K]> | null>>;
};

/** `schema` accepting null too (unchanged when it already does). */
function orNull(schema: TSchema): TSchema {
  return Array.isArray((schema as { type?: unknown }).type) ? schema : Nullable(schema);
}

const readOnly: ReadonlySet<string> = new Set(PULL_ZONE_READ_ONLY_FIELDS);
const neverNull: ReadonlySet<string> = new Set(NEVER_NULL_SETTINGS);

/** The settable response fields, each optional and (mostly) nullable, with the response's bounds. */
const settingProperties = Object.fromEntries(
  Object.entries(zoneProperties as Record<string, TSchema>)
    .filter(([name]) => !readOnly.has(name))
    .map(([name, schema]) => [name, Type.Optional(neverNull.has(name) ? schema : orNull(schema))]),
) as unknown as SettingProperties;

/** Settings the platform accepts but does not echo back as fields of their own. */
const requestOnlyProperties = {
  CacheControlBrowserMaxAgeOverride: Type.Optional(
    Nullable(Int64(), { description: 'Older name of the browser cache lifetime setting (CacheControlPublicMaxAgeOverride), in seconds.' }),
  ),
  DnsOriginPort: Type.Optional(Nullable(Int32(), { description: 'Origin port used when the origin is a DNS-accelerated record.' })),
  DnsOriginScheme: Type.Optional(NullableString('Origin scheme (`http` or `https`) used when the origin is a DNS-accelerated record.')),
};

/** Body of POST /pullzone/{id}: fields left out keep their value; null also keeps it. */
export const PullZoneUpdateRequest = Type.Object(
  { ...settingProperties, ...requestOnlyProperties },
  { additionalProperties: false, description: "Changes to a pull zone's settings.", 'x-groups': settingGroups(Object.keys(settingProperties)) },
);

/** Body of POST /pullzone: a name, plus any setting the update body takes. */
export const PullZoneAddRequest = Type.Object(
  {
    Name: Type.String({ minLength: 1, description: 'Name of the new zone; also the first label of its system hostname.' }),
    ...settingProperties,
    ...requestOnlyProperties,
  },
  { additionalProperties: false, description: 'A pull zone to create.' },
);

export type HostnameT = Static<typeof Hostname>;
export type EdgeRuleTriggerT = Static<typeof EdgeRuleTrigger>;
export type EdgeRuleExtraActionT = Static<typeof EdgeRuleExtraAction>;
export type EdgeRuleT = Static<typeof EdgeRule>;
export type PullZoneT = Static<typeof PullZone>;
export type PullZoneUpdateRequestT = Static<typeof PullZoneUpdateRequest>;
export type PullZoneAddRequestT = Static<typeof PullZoneAddRequest>;
export type PullZoneType = EnumValue<typeof PULL_ZONE_TYPES>;
export type PullZoneOriginType = EnumValue<typeof PULL_ZONE_ORIGIN_TYPES>;
export type EdgeRuleActionType = EnumValue<typeof EDGE_RULE_ACTION_TYPES>;
export type EdgeRuleTriggerType = EnumValue<typeof EDGE_RULE_TRIGGER_TYPES>;
