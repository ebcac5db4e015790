/**
 * A freshly created pull zone, with the values the platform gives a new zone. Pure: no I/O, no
 * framework. Settings sent with the create request are applied on top by the caller.
 */
import { randomUUID } from 'node:crypto';
import type { HostnameT, PullZoneOriginType, PullZoneT, PullZoneType } from '../../schemas/pull-zone.js';

export interface NewHostnameInit {
  id: number;
  value: string;
  isSystemHostname?: boolean;
}

/**
 * A hostname as first attached to a zone. The system hostname is covered by the platform's own
 * wildcard certificate, so it has one from the start; a custom hostname has none until one is
 * issued or uploaded. Certificate and key stay empty: they are only filled in on reads that ask
 * for them.
 */
export function newHostname(init: NewHostnameInit): HostnameT {
  const system = init.isSystemHostname ?? false;
  return {
    Id: init.id,
    Value: init.value,
    ForceSSL: false,
    IsSystemHostname: system,
    IsManagedHostname: false,
    HasCertificate: system,
    Certificate: '',
    CertificateKey: '',
    CertificateKeyType: 0,
    // 4 = Managed: the platform provides the system hostname's certificate; 0 = Unknown otherwise.
    CertificateProvisionType: system ? 4 : 0,
  };
}

export interface NewPullZoneInit {
  id: number;
  userId: string;
  name: string;
  originUrl: string | null;
  type: PullZoneType;
  /** The generated `<name>.<cdn domain>` hostname and the id it was stored under. */
  systemHostname: { id: number; value: string };
  /** Storage zone used as origin; 0 or absent for none. */
  storageZoneId?: number;
  /** Default: StorageZone (2) when `storageZoneId` is set, OriginUrl (0) otherwise. */
  originType?: PullZoneOriginType;
  /** Token-authentication secret; random when absent (tests pass a fixed one). */
  zoneSecurityKey?: string;
}

/** Extensions that get CORS headers by default: web fonts and style sheets, which browsers fetch cross-origin. */
export const DEFAULT_CORS_EXTENSIONS = ['eot', 'ttf', 'woff', 'woff2', 'css'] as const;

export function newPullZone(init: NewPullZoneInit): PullZoneT {
  const storageZoneId = init.storageZoneId ?? 0;
  const originType: PullZoneOriginType = init.originType ?? (storageZoneId > 0 ? 2 : 0);
  return {
    // Identity, origin and links
    Id: init.id,
    Name: init.name,
    OriginUrl: init.originUrl,
    Enabled: true,
    Suspended: false,
    Hostnames: [newHostname({ ...init.systemHostname, isSystemHostname: true })],
    StorageZoneId: storageZoneId,
    EdgeScriptId: 0,
    EdgeScriptExecutionPhase: 0,
    MiddlewareScriptId: null,
    ManagedContainersAppId: null,
    ManagedContainersEndpointId: null,
    LoadBalancerId: null,
    VideoLibraryId: 0,
    DnsRecordId: 0,
    DnsZoneId: 0,
    DnsRecordValue: null,
    UserId: init.userId,
    CacheVersion: 0,
    Type: init.type,
    OriginType: originType,
    OriginLinkValue: init.originUrl,
    // Custom hostnames are pointed (CNAME) at the zone's system hostname.
    CnameDomain: init.systemHostname.value,

    // Access control: open to everyone, served from every region.
    AllowedReferrers: [],
    BlockedReferrers: [],
    BlockedIps: [],
    BlockNoneReferrer: false,
    BlockedCountries: [],
    BudgetRedirectedCountries: [],
    BlockRootPathAccess: false,
    BlockPostRequests: false,
    ZoneSecurityEnabled: false,
    // Generated up front so that turning token authentication on needs no second call.
    ZoneSecurityKey: init.zoneSecurityKey ?? randomUUID(),
    ZoneSecurityIncludeHashRemoteIP: false,
    EnableGeoZoneUS: true,
    EnableGeoZoneEU: true,
    EnableGeoZoneASIA: true,
    EnableGeoZoneSA: true,
    EnableGeoZoneAF: true,
    // `all` means no routing restriction; the platform never leaves this list empty.
    RoutingFilters: ['all'],
    IpFamilyPolicy: 0,

    // Rate and bandwidth: 0 means unlimited throughout.
    MonthlyBandwidthLimit: 0,
    MonthlyBandwidthUsed: 0,
    MonthlyCharges: 0,
    BurstSize: 0,
    RequestLimit: 0,
    LimitRatePerSecond: 0,
    LimitRateAfter: 0,
    ConnectionLimitPerIPCount: 0,
    PriceOverride: 0,
    OptimizerPricing: 0,
    EUUSDiscount: 0,
    SouthAmericaDiscount: 0,
    AfricaDiscount: 0,
    AsiaOceaniaDiscount: 0,

    // Caching and origin behaviour
    // The query string stays in the cache key: distinct URLs never share a cached copy.
    IgnoreQueryStrings: false,
    EnableQueryStringOrdering: true,
    QueryStringVaryParameters: [],
    // -1: follow the origin's Cache-Control instead of overriding it.
    CacheControlMaxAgeOverride: -1,
    CacheControlPublicMaxAgeOverride: -1,
    EnableCacheSlice: false,
    EnableSmartCache: false,
    CacheErrorResponses: false,
    UseStaleWhileUpdating: false,
    UseStaleWhileOffline: false,
    UseBackgroundUpdate: false,
    EnableWebPVary: false,
    EnableAvifVary: false,
    EnableCountryCodeVary: false,
    EnableCountryStateCodeVary: false,
    EnableMobileVary: false,
    EnableCookieVary: false,
    EnableHostnameVary: false,
    CookieVaryParameters: [],
    CacheKeyHeaders: null,
    AddHostHeader: false,
    OriginHostHeader: null,
    AddCanonicalHeader: false,
    FollowRedirects: false,
    VerifyOriginSSL: false,
    OriginRetries: 0,
    OriginConnectTimeout: 10,
    OriginResponseTimeout: 60,
    // Which failures are retried once retries are turned on: timeouts, not 5xx answers.
    OriginRetry5XXResponses: false,
    OriginRetryConnectionTimeout: true,
    OriginRetryResponseTimeout: true,
    OriginRetryDelay: 0,
    EnableOriginShield: false,
    OriginShieldZoneCode: 'FR',
    OriginShieldEnableConcurrencyLimit: false,
    // The limits that apply once the shield's concurrency cap is switched on.
    OriginShieldMaxConcurrentRequests: 200,
    OriginShieldQueueMaxWaitTime: 30,
    OriginShieldMaxQueuedRequests: 5000,
    EnableRequestCoalescing: false,
    RequestCoalescingTimeout: 30,
    EnableSafeHop: false,
    PermaCacheStorageZoneId: 0,
    PermaCacheType: 0,
    // Set-Cookie on a shared response would leak one visitor's cookie to the next, so cookies are stripped.
    DisableCookies: true,
    EnableAccessControlOriginHeader: true,
    AccessControlOriginHeaderExtensions: [...DEFAULT_CORS_EXTENSIONS],
    EnableWebSockets: false,
    MaxWebSocketConnections: 0,
    RequestSigningEnabled: false,
    RequestSigningKey: null,
    RequestSigningSecret: null,
    RequestSigningRegionName: null,

    // TLS: old protocol versions stay on for compatibility until the owner turns them off.
    EnableTLS1: true,
    EnableTLS1_1: true,
    TlsSecurityLevel: 0,
    EnableAutoSSL: false,
    DisableBuiltInCertificateIssuance: false,

    // Logging: on, with client addresses anonymized (privacy by default).
    EnableLogging: true,
    EnableExtendedLogging: false,
    LoggingIPAnonymizationEnabled: true,
    LogAnonymizationType: 0,
    LogFormat: 0,
    LoggingSaveToStorage: false,
    LoggingStorageZoneId: 0,
    LogForwardingEnabled: false,
    LogForwardingHostname: null,
    LogForwardingPort: 0,
    LogForwardingToken: null,
    LogForwardingProtocol: 0,
    LogForwardingFormat: 0,

    // Error pages and preloading screen
    ErrorPageEnableCustomCode: false,
    ErrorPageCustomCode: null,
    ErrorPageEnableStatusWidget: false,
    ErrorPageStatusCode: null,
    ErrorPageWhitelabel: false,
    PreloadingScreenEnabled: false,
    PreloadingScreenShowOnFirstVisit: false,
    PreloadingScreenCode: null,
    PreloadingScreenLogoUrl: null,
    PreloadingScreenCodeEnabled: false,
    PreloadingScreenTheme: 0,
    // Fast pages never flash the screen: it only appears after a second of loading.
    PreloadingScreenDelay: 1000,

    // DDoS protection: the standard mode is preselected but protection starts switched off.
    ShieldDDosProtectionEnabled: false,
    ShieldDDosProtectionType: 1,
    StickySessionType: 0,
    StickySessionCookieName: null,
    StickySessionClientHeaders: null,

    // Optimizer: off, but preconfigured so that switching it on gives sensible results.
    OptimizerEnabled: false,
    OptimizerTunnelEnabled: false,
    OptimizerEnableWebP: true,
    OptimizerPrerenderHtml: false,
    OptimizerEnableManipulationEngine: true,
    OptimizerMinifyCSS: true,
    OptimizerMinifyJavaScript: true,
    OptimizerWatermarkEnabled: false,
    OptimizerAutomaticOptimizationEnabled: true,
    OptimizerEnableUpscaling: false,
    OptimizerForceClasses: false,
    OptimizerStaticHtmlEnabled: false,
    OptimizerDesktopMaxWidth: 1600,
    OptimizerMobileMaxWidth: 800,
    OptimizerImageQuality: 85,
    OptimizerMobileImageQuality: 70,
    OptimizerWatermarkUrl: null,
    OptimizerWatermarkPosition: 0,
    OptimizerWatermarkOffset: 3,
    OptimizerWatermarkMinImageSize: 300,
    OptimizerClasses: [],
    OptimizerStaticHtmlCmsPath: null,
    OptimizerStaticHtmlCmsBypassCookie: null,
    EnableVendorImageAi: false,
    VendorAiImageBlueprints: [],

    EdgeRules: [],
  };
}
