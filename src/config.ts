/**
 * The whole configuration, declared once. Every option has an environment variable; `readConfig`
 * validates them all at start so a typo fails fast with a message instead of a surprise later.
 */
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import { parseSecondaries, parseTsigKeys } from './schemas/dns-secondaries.js';
import { FaultRules, ruleProblem } from './schemas/faults.js';

/** A plane's port: a number (0 lets the system pick a free one) or `off`, which turns the plane off. */
function Port(defaultPort: number, description: string) {
  return Type.Union([Type.Integer({ minimum: 0, maximum: 65535 }), Type.Literal('off')], { default: defaultPort, description });
}

/** Whether a property takes integers (alone or beside words such as `off`): its text is then read as a number. */
function takesIntegers(schema: { type?: string; anyOf?: { type?: string }[] }): boolean {
  return schema.type === 'integer' || (schema.anyOf ?? []).some((option) => option.type === 'integer');
}

export const ConfigSchema = Type.Object({
  host: Type.String({ default: '127.0.0.1', description: 'Address the HTTP server binds to.' }),
  port: Port(8080, 'TCP port of the management API (0 picks a free one; `off` turns it off).'),
  storagePort: Port(8081, 'TCP port of the storage plane: the file API of every storage zone (0 picks a free one; `off` turns it off).'),
  s3Port: Port(8083, 'TCP port of the S3 plane: the S3-compatible API of storage zones created with S3 support (0 picks a free one; `off` turns it off).'),
  videoPort: Port(
    8084,
    "TCP port of the video plane: the video API of video libraries, authenticated with a library's API key (0 picks a free one; `off` turns it off).",
  ),
  edgePort: Port(8082, 'TCP port of the edge plane: HTTP for the hostnames of every pull zone (0 picks a free one; `off` turns it off).'),
  edgeTlsPort: Port(8443, 'TCP port of the edge plane over HTTPS, the certificate chosen by SNI (0 picks a free one; `off` turns it off).'),
  playbackUrl: Type.String({
    default: 'https://{host}',
    pattern: '^https?://\\{host\\}(:\\d{1,5})?$',
    description:
      "Where browsers reach a video library's pull zone: the scheme and port of the playback addresses the video plane gives out (play data, thumbnails, the embed page), the host being the zone's own. `http://{host}:8082` points them at a local edge plane.",
  }),
  edgeCacheBytes: Type.Integer({
    minimum: 0,
    default: 268435456,
    description: 'Bytes of answers the edge keeps in memory (default 256 MiB); the least recently used go first. 0 caches nothing.',
  }),
  originPrivateAddresses: Type.Union([Type.Literal('allow'), Type.Literal('deny')], {
    default: 'allow',
    description:
      "Whether pull zone origins may be at loopback and private addresses (127.0.0.0/8, ::1, 10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7): `allow` (local development pulls from them) or `deny`. Link-local and metadata addresses (169.254.0.0/16, fe80::/10), 0.0.0.0 and edgeplane's own listeners are refused either way.",
  }),
  originShieldUrl: Type.Optional(
    Type.String({
      pattern: '^http://([A-Za-z0-9.-]+|\\[[0-9A-Fa-f:.]+\\])(:\\d{1,5})?/?$',
      description:
        'The edge URL (`http://host:port`) of the instance that acts as origin shield, the same on every instance: a zone with `EnableOriginShield` has the other instances fetch its misses through that one, so its origin is asked once per object. The instance whose own edge listener this names (its port, and an address it listens on) asks the origin itself. Unset: no shield, each instance asks the origin.',
    }),
  ),
  edgeDdosThreshold: Type.Integer({
    minimum: 1,
    default: 1000,
    description:
      "Requests from one client address (an IPv6 client's /64) for one pull zone in 10 seconds, per instance, above which a zone's DDoS protection acts: ActiveStandard and DetectOnly at this figure, ActiveAggressive at a quarter of it; the active modes refuse 429 at ten times theirs.",
  }),
  statusWidgetScript: Type.Optional(
    Type.String({
      pattern: '^https?://[^\\s]*\\{code\\}[^\\s]*$',
      description:
        "The status page widget's script on edge error pages, `{code}` standing for a zone's `ErrorPageStatusCode` (`https://{code}.status.example/embed/script.js`). Unset: no error page shows a widget.",
    }),
  ),
  loggingPort: Port(
    8085,
    "TCP port of the logging plane: the logging API, where a pull zone's owner reads its access log with an account API key (0 picks a free one; `off` turns it off).",
  ),
  logForwardingCa: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        "A PEM file of certificate authorities that log collectors reached over TLS (`LogForwardingProtocol` 2) may be signed by, besides the system's. Unset: the system's only.",
    }),
  ),
  logStorageFlushMs: Type.Integer({
    minimum: 100,
    default: 3600000,
    description:
      'How often the access log of zones with `LoggingSaveToStorage` is written into their storage zone, in milliseconds: each write is a file (a part of the day), so the default makes a part an hour per instance.',
  }),
  edgeScriptCpuMs: Type.Integer({
    minimum: 10,
    default: 30000,
    description:
      "CPU time an edge script's request may use, in milliseconds (the platform's limit): past it the script's process is stopped and the request answered 503.",
  }),
  edgeScriptStartupMs: Type.Integer({
    minimum: 10,
    default: 500,
    description: "How long an edge script's process may take to start serving, in milliseconds (the platform's limit): past it the request is answered 503.",
  }),
  edgeScriptMemoryMb: Type.Integer({
    minimum: 16,
    default: 128,
    description: "The heap of an edge script's process, in MB (the platform's limit per script).",
  }),
  edgeScriptNetwork: Type.Union([Type.Literal('deny-list'), Type.Literal('namespace')], {
    default: 'deny-list',
    description:
      "How an edge script's network is bounded: `deny-list` (Deno's own `--deny-net`: fetch, WebSocket and TCP/TLS sockets, but IPv6 ranges cannot be listed) or `namespace` (each script's process in a network namespace of its own, with only loopback; fetch and TCP sockets go through edgeplane's egress, which judges every address of both families; no WebSocket client, TLS socket or UDP). Needs `unshare` and root or user namespaces.",
  }),
  edgeScriptCacheDir: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        "Folder of the edge scripts' Deno cache (compiled code, kept across restarts: a script's process starts in about half the time with it warm) and of their published modules. Unset: `~/.cache/edgeplane/deno`; when it cannot be made, a temporary folder per run.",
    }),
  ),
  dnsPort: Port(8053, 'UDP and TCP port of the DNS plane: the authoritative name server of every DNS zone (0 picks a free one; `off` turns it off).'),
  databaseUrl: Type.String({
    default: 'sqlite:./data/edgeplane.db',
    pattern: '^(sqlite:.+|postgres(ql)?://.+)$',
    description: 'Store location: `sqlite:<path>`, `sqlite::memory:`, or `postgres://…`.',
  }),
  dbPoolMax: Type.Integer({ minimum: 1, maximum: 1000, default: 10, description: 'PostgreSQL: most connections this instance opens.' }),
  dbStatementTimeoutMs: Type.Integer({
    minimum: 100,
    default: 5000,
    description: 'PostgreSQL: a statement running longer is cancelled and the request answered 503.',
  }),
  seed: Type.Optional(Type.String({ minLength: 1, description: 'Seed file (JSON) applied at start, and again by `POST /_edgeplane/reset {"to": "seed"}`.' })),
  bootstrapKey: Type.Optional(
    Type.String({ minLength: 16, description: 'API key of the first account, created on an empty store. Random (printed once) when unset.' }),
  ),
  masterKey: Type.Optional(
    Type.String({
      pattern: '^[0-9a-fA-F]{64}$',
      description:
        '32-byte hex key that encrypts stored credentials. Default: a key file beside the SQLite database (0600), or an in-memory key for `sqlite::memory:`.',
    }),
  ),
  adminToken: Type.Optional(
    Type.String({
      minLength: 16,
      description: 'Operator credential for the `/_edgeplane/` routes (`Authorization: Bearer <token>`). Unset: those routes answer 404.',
    }),
  ),
  cdnDomain: Type.String({ default: 'edgeplane.test', description: 'Domain of generated pull zone system hostnames (`<name>.<domain>`).' }),
  storageDomain: Type.String({ default: 'storage.edgeplane.test', description: 'Domain of generated storage zone hostnames.' }),
  nameservers: Type.Optional(
    Type.String({
      pattern: '^[A-Za-z0-9.-]+(,[A-Za-z0-9.-]+)*$',
      description:
        "The platform's name servers, comma-separated: announced (NS, SOA) by every zone without custom name servers, and given to new zones. Default: `ns1.<cdn domain>,ns2.<cdn domain>`.",
    }),
  ),
  edgeAddresses: Type.String({
    default: '127.0.0.1,::1',
    pattern: '^[0-9A-Fa-f:.]+(,[0-9A-Fa-f:.]+)*$',
    description:
      'Addresses of the edge, comma-separated: what DNS answers (A and AAAA) for `PullZone` and `Redirect` records, so their names reach the edge plane.',
  }),
  dnsRateLimitPerSecond: Type.Integer({
    minimum: 0,
    maximum: 10000000,
    default: 1000,
    description:
      'UDP queries per second the DNS plane takes from one client (an IPv4 address, an IPv6 /64); beyond it queries are dropped, every second one answered truncated so real clients retry over TCP. 0 turns it off.',
  }),
  dnsTcpConnectionsPerClient: Type.Integer({
    minimum: 0,
    maximum: 1000,
    default: 20,
    description:
      'TCP connections one client (an IPv4 address, an IPv6 /64) may hold open to the DNS plane, of the 1,000 it takes in all; more are closed at once. 0 turns the cap off.',
  }),
  dnsUdpBatching: Type.Union([Type.Literal('on'), Type.Literal('off')], {
    default: 'on',
    description:
      '`on`: the DNS plane reads and answers up to 64 UDP queries per system call (`recvmmsg`/`sendmmsg`, a native addon `npm ci` builds on Linux; where it is not built, a warning at start and `node:dgram`). `off`: `node:dgram`, one system call per datagram.',
  }),
  dnsUpstream: Type.Optional(
    Type.String({
      pattern: '^[^\\s]+$',
      description:
        'A resolver (`<ip>` or `<ip>:<port>`) the DNS plane asks for what lies outside the store: the addresses of a `Flatten` target elsewhere, and record scans. Unset: such a `Flatten` answers SERVFAIL.',
    }),
  ),
  dnsSecondaries: Type.Optional(
    Type.String({
      description:
        'Secondary name servers, comma-separated `ip[:port]` (`[ipv6]:port`): the addresses allowed to transfer every DNS zone (AXFR, IXFR over TCP, with a key of `EDGEPLANE_DNS_TSIG_KEYS`), and where NOTIFY goes when a zone changes (the port, 53 by default). Unset: transfers are refused.',
    }),
  ),
  dnsTsigKeys: Type.Optional(
    Type.String({
      description:
        'TSIG keys of the secondaries, comma-separated `algorithm:name:base64-secret` (what `dig -y` takes; hmac-sha256, hmac-sha384, hmac-sha512, hmac-sha224 or hmac-sha1): a transfer must be signed with one of them; NOTIFY is signed with the first. Never logged.',
    }),
  ),
  dnsSoaRefresh: Type.Integer({
    minimum: 60,
    maximum: 2147483647,
    default: 3600,
    description: 'SOA refresh (seconds): how often secondaries check the serial when no NOTIFY came.',
  }),
  dnsSoaRetry: Type.Integer({
    minimum: 10,
    maximum: 2147483647,
    default: 600,
    description: 'SOA retry (seconds): how soon a secondary whose check failed tries again.',
  }),
  dnsSoaExpire: Type.Integer({
    minimum: 3600,
    maximum: 2147483647,
    default: 1209600,
    description: 'SOA expire (seconds): how long a secondary that cannot reach this server goes on answering the zone.',
  }),
  containerDomain: Type.String({ default: 'containers.edgeplane.test', description: 'Domain of generated container endpoint public hosts.' }),
  containerRuntime: Type.Union([Type.Literal('auto'), Type.Literal('podman'), Type.Literal('simulated')], {
    default: 'auto',
    description:
      'What runs container applications: `podman` (real containers), `simulated` (none run; statuses follow the clock), or `auto`: podman when its binary answers, else the simulation.',
  }),
  podmanPath: Type.String({ minLength: 1, default: 'podman', description: 'The podman binary (a name on PATH or a path).' }),
  podmanOciRuntime: Type.String({
    default: 'runc',
    description: "The OCI runtime podman runs containers with (`--runtime`); empty: podman's own choice. `crun` fails on hosts with hybrid cgroups.",
  }),
  containerReconcileMs: Type.Integer({
    minimum: 100,
    default: 5000,
    description: 'How often the running containers are compared with the stored applications even when nothing was written, in milliseconds.',
  }),
  containerDrainMs: Type.Integer({
    minimum: 0,
    default: 2000,
    description: 'How long a container taken out of the balance (rolled or scaled away) keeps running for the requests in flight, in milliseconds.',
  }),
  containerScaleSampleMs: Type.Integer({
    minimum: 500,
    default: 5000,
    description:
      "How often the running containers' CPU is measured for autoscaling, in milliseconds (read from their control groups: no podman command). At least 500: the kernel meters a CPU limit in 100 ms periods, so a shorter span measures where it falls among them more than the load.",
  }),
  containerScaleUpMs: Type.Integer({
    minimum: 0,
    default: 15000,
    description: "How long an application's CPU must stay above 80% of its replicas' limit before replicas are added, in milliseconds.",
  }),
  containerScaleDownMs: Type.Integer({
    minimum: 0,
    default: 120000,
    description: "How long an application's CPU must stay below 30% of its replicas' limit before replicas are removed, in milliseconds.",
  }),
  containerAnycastAddress: Type.String({
    minLength: 1,
    default: '127.0.0.1',
    description:
      "The address an anycast container endpoint's ports listen on (podman runtime): each exposed port forwards TCP connections to the endpoint's ready replicas.",
  }),
  jobLeaseMs: Type.Integer({
    minimum: 1000,
    default: 60000,
    description:
      "How long a background job is held by the instance running it before another may take it, in milliseconds: renewed while it runs, so it is how soon a killed instance's jobs (an encode) are taken up again.",
  }),
  encodeConcurrency: Type.Integer({
    minimum: 1,
    maximum: 64,
    default: 1,
    description: 'How many videos one instance encodes at once (each ffmpeg uses every core it is given).',
  }),
  jobDelayMs: Type.Integer({
    minimum: 0,
    default: 2000,
    description: 'Pace of simulated background work (replication, acceleration, deployments), in milliseconds per step.',
  }),
  monitorIntervalMs: Type.Integer({ minimum: 100, default: 60000, description: 'How often DNS record monitors probe their targets, in milliseconds.' }),
  ffmpegPath: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        "The ffmpeg that encodes videos (a path). Unset: an `ffmpeg` found on `PATH` (such as Debian's), else the static build the `@ffmpeg-installer/ffmpeg` package brings.",
    }),
  ),
  ffprobePath: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        'The ffprobe that reads uploaded videos (a path). Unset: the `ffprobe` beside a named ffmpeg, else one on `PATH`, else the static build of `@ffprobe-installer/ffprobe`.',
    }),
  ),
  logLevel: Type.Union(
    [
      Type.Literal('fatal'),
      Type.Literal('error'),
      Type.Literal('warn'),
      Type.Literal('info'),
      Type.Literal('debug'),
      Type.Literal('trace'),
      Type.Literal('silent'),
    ],
    { default: 'info', description: 'Log level.' },
  ),
  filesUrl: Type.Optional(
    Type.String({
      pattern: '^(file:.+|s3://.+)$',
      description:
        'Where the bytes of stored files live: `file:<dir>`, or `s3://<bucket>[/<prefix>]?endpoint=<url>&region=<r>&forcePathStyle=true` for any S3-compatible store (credentials from the standard AWS variables). Default: `files/` beside the SQLite database (a temporary directory for `sqlite::memory:`); with PostgreSQL it must be set, to a backend every instance shares.',
    }),
  ),
  maxFileBytes: Type.Integer({
    minimum: 1,
    default: 5368709120,
    description:
      'Largest file the storage plane accepts, in bytes (default 5 GiB, the largest single upload S3 takes); over it: 413 before the bytes are kept.',
  }),
  transferIdleTimeoutMs: Type.Integer({
    minimum: 1000,
    maximum: 3600000,
    default: 60000,
    description:
      'Storage and S3 planes: a connection on which no byte moves for this long is cut, in milliseconds: an upload that stalls (408), a download the client stops reading, a connection left idle. A transfer that keeps moving has no deadline.',
  }),
  bodyLimit: Type.Integer({ minimum: 1024, default: 1048576, description: 'Largest accepted request body, in bytes.' }),
  rateLimitPerSecond: Type.Integer({
    minimum: 0,
    maximum: 1000000,
    default: 200,
    description:
      'Requests per second each API key may make (token bucket, bursts up to twice this), per instance; over it: 429 with `Retry-After`. 0 turns it off.',
  }),
  authFailureLimit: Type.Integer({
    minimum: 0,
    maximum: 1000000,
    default: 20,
    description:
      'Distinct wrong credentials one client address may send per minute before its requests are refused (429 with `Retry-After`) until the minute ends. 0 turns it off.',
  }),
  faults: Type.Optional(
    Type.Object(FaultRules.properties, {
      description:
        'Fault injection rules in force from start, as the JSON body of `PUT /_edgeplane/faults` (`{"rules": [{"path": "/pullzone/:id", "status": 503}]}`). Per instance. Unset: no faults.',
    }),
  ),
  journalSize: Type.Integer({
    minimum: 0,
    maximum: 100000,
    default: 0,
    description: 'How many recent requests the operator journal (`GET /_edgeplane/journal`) keeps in memory; 0 turns it off.',
  }),
  answerCacheSize: Type.Integer({
    minimum: 0,
    maximum: 1000000,
    default: 6000,
    description:
      "How many pull zones' serialized answers (about 5 KB each) are kept in memory for repeated `GET /pullzone/{id}`; a write drops its zone's answer at once, on every instance (the store's change feed). 0 turns it off.",
  }),
});
export type Config = Static<typeof ConfigSchema>;

/** Environment variable for each option: the table in the README is checked against this map. */
export const ENV_VARS: Record<keyof Config, string> = {
  host: 'HOST',
  port: 'PORT',
  storagePort: 'EDGEPLANE_STORAGE_PORT',
  s3Port: 'EDGEPLANE_S3_PORT',
  videoPort: 'EDGEPLANE_VIDEO_PORT',
  edgePort: 'EDGEPLANE_EDGE_PORT',
  edgeTlsPort: 'EDGEPLANE_EDGE_TLS_PORT',
  playbackUrl: 'EDGEPLANE_PLAYBACK_URL',
  edgeCacheBytes: 'EDGEPLANE_EDGE_CACHE_BYTES',
  originPrivateAddresses: 'EDGEPLANE_ORIGIN_PRIVATE_ADDRESSES',
  originShieldUrl: 'EDGEPLANE_ORIGIN_SHIELD_URL',
  edgeDdosThreshold: 'EDGEPLANE_EDGE_DDOS_THRESHOLD',
  statusWidgetScript: 'EDGEPLANE_STATUS_WIDGET_SCRIPT',
  loggingPort: 'EDGEPLANE_LOGGING_PORT',
  logForwardingCa: 'EDGEPLANE_LOG_FORWARDING_CA',
  logStorageFlushMs: 'EDGEPLANE_LOG_STORAGE_FLUSH_MS',
  edgeScriptCpuMs: 'EDGEPLANE_EDGE_SCRIPT_CPU_MS',
  edgeScriptStartupMs: 'EDGEPLANE_EDGE_SCRIPT_STARTUP_MS',
  edgeScriptMemoryMb: 'EDGEPLANE_EDGE_SCRIPT_MEMORY_MB',
  edgeScriptNetwork: 'EDGEPLANE_EDGE_SCRIPT_NETWORK',
  edgeScriptCacheDir: 'EDGEPLANE_EDGE_SCRIPT_CACHE_DIR',
  dnsPort: 'EDGEPLANE_DNS_PORT',
  databaseUrl: 'DATABASE_URL',
  dbPoolMax: 'EDGEPLANE_DB_POOL_MAX',
  dbStatementTimeoutMs: 'EDGEPLANE_DB_STATEMENT_TIMEOUT_MS',
  seed: 'EDGEPLANE_SEED',
  bootstrapKey: 'EDGEPLANE_BOOTSTRAP_KEY',
  masterKey: 'EDGEPLANE_MASTER_KEY',
  adminToken: 'EDGEPLANE_ADMIN_TOKEN',
  cdnDomain: 'EDGEPLANE_CDN_DOMAIN',
  storageDomain: 'EDGEPLANE_STORAGE_DOMAIN',
  nameservers: 'EDGEPLANE_NAMESERVERS',
  edgeAddresses: 'EDGEPLANE_EDGE_ADDRESSES',
  dnsRateLimitPerSecond: 'EDGEPLANE_DNS_RATE_LIMIT_PER_SECOND',
  dnsTcpConnectionsPerClient: 'EDGEPLANE_DNS_TCP_CONNECTIONS_PER_CLIENT',
  dnsUdpBatching: 'EDGEPLANE_DNS_UDP_BATCHING',
  dnsUpstream: 'EDGEPLANE_DNS_UPSTREAM',
  dnsSecondaries: 'EDGEPLANE_DNS_SECONDARIES',
  dnsTsigKeys: 'EDGEPLANE_DNS_TSIG_KEYS',
  dnsSoaRefresh: 'EDGEPLANE_DNS_SOA_REFRESH',
  dnsSoaRetry: 'EDGEPLANE_DNS_SOA_RETRY',
  dnsSoaExpire: 'EDGEPLANE_DNS_SOA_EXPIRE',
  containerDomain: 'EDGEPLANE_CONTAINER_DOMAIN',
  containerRuntime: 'EDGEPLANE_CONTAINER_RUNTIME',
  podmanPath: 'EDGEPLANE_PODMAN',
  podmanOciRuntime: 'EDGEPLANE_PODMAN_OCI_RUNTIME',
  containerReconcileMs: 'EDGEPLANE_CONTAINER_RECONCILE_MS',
  containerDrainMs: 'EDGEPLANE_CONTAINER_DRAIN_MS',
  containerScaleSampleMs: 'EDGEPLANE_CONTAINER_SCALE_SAMPLE_MS',
  containerScaleUpMs: 'EDGEPLANE_CONTAINER_SCALE_UP_MS',
  containerScaleDownMs: 'EDGEPLANE_CONTAINER_SCALE_DOWN_MS',
  containerAnycastAddress: 'EDGEPLANE_CONTAINER_ANYCAST_ADDRESS',
  jobLeaseMs: 'EDGEPLANE_JOB_LEASE_MS',
  encodeConcurrency: 'EDGEPLANE_ENCODE_CONCURRENCY',
  jobDelayMs: 'EDGEPLANE_JOB_DELAY_MS',
  monitorIntervalMs: 'EDGEPLANE_MONITOR_INTERVAL_MS',
  ffmpegPath: 'EDGEPLANE_FFMPEG',
  ffprobePath: 'EDGEPLANE_FFPROBE',
  logLevel: 'LOG_LEVEL',
  filesUrl: 'EDGEPLANE_FILES_URL',
  maxFileBytes: 'EDGEPLANE_MAX_FILE_BYTES',
  transferIdleTimeoutMs: 'EDGEPLANE_TRANSFER_IDLE_TIMEOUT_MS',
  bodyLimit: 'EDGEPLANE_BODY_LIMIT',
  rateLimitPerSecond: 'EDGEPLANE_RATE_LIMIT_PER_SECOND',
  authFailureLimit: 'EDGEPLANE_AUTH_FAILURE_LIMIT',
  faults: 'EDGEPLANE_FAULTS',
  journalSize: 'EDGEPLANE_JOURNAL_SIZE',
  answerCacheSize: 'EDGEPLANE_ANSWER_CACHE_SIZE',
};

export class ConfigError extends Error {}

/** Builds a validated config from environment-style strings plus overrides (tests pass objects). */
export function readConfig(env: Record<string, string | undefined> = process.env, overrides: Partial<Config> = {}): Config {
  const raw: Record<string, unknown> = {};
  for (const [key, variable] of Object.entries(ENV_VARS) as [keyof Config, string][]) {
    const value = env[variable];
    if (value === undefined || value === '') continue;
    const prop = ConfigSchema.properties[key] as { type?: string; anyOf?: { type?: string }[] };
    raw[key] = takesIntegers(prop) && /^-?\d+$/.test(value) ? Number(value) : prop.type === 'object' ? parseJson(variable, value) : value;
  }
  const merged = Value.Default(ConfigSchema, { ...raw, ...overrides }) as Record<string, unknown>;
  if (!Value.Check(ConfigSchema, merged)) {
    const problems = [...Value.Errors(ConfigSchema, merged)].map((e) => {
      // `/faults/rules/0/status` names the variable, then the place inside its JSON value.
      const [key, ...inner] = e.instancePath.replace(/^\//, '').split('/') as [keyof Config, ...string[]];
      return `${ENV_VARS[key] ?? key}${inner.length > 0 ? ` (${inner.join('.')})` : ''}: ${e.message}`;
    });
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const config = merged as Config;
  for (const [key, parse] of [
    ['dnsSecondaries', parseSecondaries],
    ['dnsTsigKeys', parseTsigKeys],
  ] as const) {
    try {
      parse(config[key]);
    } catch (error) {
      throw new ConfigError(`Invalid configuration:\n  ${ENV_VARS[key]}: ${(error as Error).message}`);
    }
  }
  config.faults?.rules.forEach((rule, i) => {
    const problem = ruleProblem(rule);
    if (problem) throw new ConfigError(`Invalid configuration:\n  ${ENV_VARS.faults} (rules.${i}${problem.field}): ${problem.message}`);
  });
  return config;
}

function parseJson(variable: string, value: string): unknown {
  try {
    return JSON.parse(value) as unknown;
  } catch {
    throw new ConfigError(`Invalid configuration:\n  ${variable}: not valid JSON.`);
  }
}
