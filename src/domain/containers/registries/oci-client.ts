/**
 * A client of the OCI distribution API (`/v2/…`), the protocol every image registry speaks: the
 * catalog, tag lists, manifests (image indexes and manifests, OCI and Docker media types) and
 * blobs. It signs in as registries ask: on a 401 with `WWW-Authenticate: Bearer realm=…` it gets
 * a token from the realm (with the stored credentials, when there are any) and retries; with
 * `Basic` it retries with the credentials. Tokens are kept in memory until they expire.
 *
 * Registries are outside edgeplane's control, so every answer is bounded (time and size), content
 * is checked against its digest, and a failure is reported as a `RegistryError` saying what went
 * wrong, never passed on as the registry's own text.
 */
import { createHash } from 'node:crypto';
import { ExpiringMap } from '../../bounded-map.js';

export interface RegistryCredentials {
  userName: string;
  password: string;
}

/** Where a registry is and how to sign in to it. */
export interface RegistryLocation {
  /** `https://registry.example.com` or `http://127.0.0.1:5000`: scheme, host and port, no path. */
  baseUrl: string;
  credentials: RegistryCredentials | null;
}

/** What went wrong: the registry could not be reached, refused us, lacks the thing asked for, cannot do it, or answered nonsense. */
export type RegistryFailure = 'unreachable' | 'refused' | 'unknown' | 'unsupported' | 'malformed';

export class RegistryError extends Error {
  constructor(
    readonly failure: RegistryFailure,
    message: string,
    /** For `unknown`: whether the registry lacks the repository itself, or the tag or digest asked for. */
    readonly missing?: 'repository' | 'reference',
  ) {
    super(message);
    this.name = 'RegistryError';
  }
}

export const MANIFEST_TYPES = {
  ociIndex: 'application/vnd.oci.image.index.v1+json',
  ociManifest: 'application/vnd.oci.image.manifest.v1+json',
  dockerList: 'application/vnd.docker.distribution.manifest.list.v2+json',
  dockerManifest: 'application/vnd.docker.distribution.manifest.v2+json',
} as const;
const ACCEPT_MANIFESTS = Object.values(MANIFEST_TYPES).join(', ');
const INDEX_TYPES = new Set<string>([MANIFEST_TYPES.ociIndex, MANIFEST_TYPES.dockerList]);
const IMAGE_TYPES = new Set<string>([MANIFEST_TYPES.ociManifest, MANIFEST_TYPES.dockerManifest]);
const SHA256_DIGEST = /^sha256:[a-f0-9]{64}$/;

/** The parts of an image configuration (the OCI image spec's `config`) that say how to run it. */
export interface ImageRunConfig {
  ExposedPorts?: Record<string, unknown>;
  Volumes?: Record<string, unknown>;
  Env?: string[];
  Labels?: Record<string, string>;
}

interface Answer {
  status: number;
  headers: Headers;
  body: Buffer;
}

interface Descriptor {
  mediaType?: string;
  digest?: string;
  platform?: { os?: string; architecture?: string };
}

export interface OciClientOptions {
  /** Longest wait for one HTTP exchange with a registry. */
  timeoutMs?: number;
  /** Largest answer read from a registry (manifests, configurations, lists). */
  maxBytes?: number;
  /** Most pages of a catalog or tag list followed. */
  maxPages?: number;
}

const sha256 = (bytes: Buffer) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

/** `Bearer realm="https://auth.example/token",service="registry",scope="repository:a/b:pull"` → its scheme and parameters. */
export function parseChallenge(header: string): { scheme: string; params: Record<string, string> } | undefined {
  const match = /^\s*([A-Za-z]+)\s*(.*)$/s.exec(header);
  if (!match) return undefined;
  const params: Record<string, string> = {};
  for (const [, key, quoted, bare] of match[2]!.matchAll(/([A-Za-z_]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]*))/g)) {
    params[key!.toLowerCase()] = quoted !== undefined ? quoted.replace(/\\(.)/g, '$1') : (bare ?? '');
  }
  return { scheme: match[1]!.toLowerCase(), params };
}

/** The `rel="next"` target of a Link header, if any. */
function nextLink(header: string | null): string | undefined {
  const match = header && /<([^>]+)>\s*;\s*rel="?next"?/i.exec(header);
  return match ? match[1] : undefined;
}

export class OciClient {
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  private readonly maxPages: number;
  /** Bearer tokens by registry, identity and scope. */
  private readonly tokens = new ExpiringMap<string, { token: string; until: number }>(1000);

  constructor(options: OciClientOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.maxBytes = options.maxBytes ?? 4 * 1024 * 1024;
    this.maxPages = options.maxPages ?? 10;
  }

  /** Signs in (with the credentials, when there are any): a registry that refuses them fails with `refused`. */
  async check(location: RegistryLocation): Promise<void> {
    const answer = await this.send(location, '/v2/', 'GET', undefined, undefined);
    if (answer.status !== 200) throw this.unexpected(answer, 'the registry API root');
  }

  /** Every repository the registry lists (`/v2/_catalog`, page by page). */
  async catalog(location: RegistryLocation): Promise<string[]> {
    // The catalog is optional in the distribution API: a registry without one answers 404.
    return this.pagedList(location, '/v2/_catalog?n=1000', 'registry:catalog:*', 'repositories', 'a list of its images', 'unsupported');
  }

  async tags(location: RegistryLocation, repository: string): Promise<string[]> {
    return this.pagedList(location, `/v2/${repository}/tags/list?n=1000`, `repository:${repository}:pull`, 'tags', `the tags of ${repository}`, 'unknown');
  }

  /** The digest a tag (or digest) points at now: the `Docker-Content-Digest` of the manifest, else the hash of its bytes. */
  async digest(location: RegistryLocation, repository: string, reference: string): Promise<string> {
    const head = await this.send(location, `/v2/${repository}/manifests/${reference}`, 'HEAD', ACCEPT_MANIFESTS, `repository:${repository}:pull`);
    const announced = head.status === 200 ? head.headers.get('docker-content-digest') : null;
    if (announced && SHA256_DIGEST.test(announced)) return announced;
    // A HEAD answer has no error body to tell a missing repository from a missing tag (404), and
    // some registries refuse HEAD (405) or announce no digest: GET tells, and its bytes are hashed.
    if (head.status !== 200 && head.status !== 404 && head.status !== 405) throw this.unexpected(head, `${repository}:${reference}`);
    return (await this.manifest(location, repository, reference)).digest;
  }

  /** The run configuration of an image: through an index to the Linux manifest, to its configuration blob. */
  async imageConfig(location: RegistryLocation, repository: string, reference: string): Promise<ImageRunConfig> {
    let manifest = await this.manifest(location, repository, reference);
    if (INDEX_TYPES.has(manifest.mediaType)) {
      const entries = (manifest.json as { manifests?: Descriptor[] }).manifests ?? [];
      // Build attestations sit in indexes as manifests of platform unknown/unknown.
      const runnable = entries.filter((e) => e.digest && e.platform?.os !== 'unknown');
      const chosen =
        runnable.find((e) => e.platform?.os === 'linux' && e.platform.architecture === 'amd64') ??
        runnable.find((e) => e.platform?.os === 'linux') ??
        runnable[0];
      if (!chosen?.digest) throw new RegistryError('malformed', `The image index of ${repository}:${reference} lists no image.`);
      manifest = await this.manifest(location, repository, chosen.digest);
    }
    if (!IMAGE_TYPES.has(manifest.mediaType)) {
      throw new RegistryError('unsupported', `${repository}:${reference} is a manifest of type ${manifest.mediaType}, which edgeplane does not read.`);
    }
    const configDigest = (manifest.json as { config?: Descriptor }).config?.digest;
    if (!configDigest || !SHA256_DIGEST.test(configDigest))
      throw new RegistryError('malformed', `The manifest of ${repository}:${reference} names no configuration.`);
    const blob = await this.send(location, `/v2/${repository}/blobs/${configDigest}`, 'GET', undefined, `repository:${repository}:pull`);
    if (blob.status !== 200) throw this.unexpected(blob, `the configuration of ${repository}:${reference}`);
    if (sha256(blob.body) !== configDigest) throw new RegistryError('malformed', `The configuration of ${repository}:${reference} does not match its digest.`);
    const config = this.json(blob.body, `the configuration of ${repository}:${reference}`) as { config?: ImageRunConfig | null };
    return config.config ?? {};
  }

  /** A manifest with its media type and digest, checked against the digest asked for or announced. */
  async manifest(location: RegistryLocation, repository: string, reference: string): Promise<{ mediaType: string; digest: string; json: unknown }> {
    const answer = await this.send(location, `/v2/${repository}/manifests/${reference}`, 'GET', ACCEPT_MANIFESTS, `repository:${repository}:pull`);
    if (answer.status !== 200) throw this.unexpected(answer, `${repository}:${reference}`);
    const digest = sha256(answer.body);
    const expected = SHA256_DIGEST.test(reference) ? reference : answer.headers.get('docker-content-digest');
    if (expected && SHA256_DIGEST.test(expected) && expected !== digest) {
      throw new RegistryError('malformed', `The manifest of ${repository}:${reference} does not match its digest.`);
    }
    const json = this.json(answer.body, `the manifest of ${repository}:${reference}`) as { mediaType?: string };
    const mediaType = json.mediaType ?? answer.headers.get('content-type')?.split(';')[0]?.trim() ?? '';
    return { mediaType, digest, json };
  }

  private async pagedList(
    location: RegistryLocation,
    first: string,
    scope: string,
    member: string,
    what: string,
    notFound: 'unsupported' | 'unknown',
  ): Promise<string[]> {
    const out: string[] = [];
    let path: string | undefined = first;
    for (let page = 0; path !== undefined && page < this.maxPages; page++) {
      const answer = await this.send(location, path, 'GET', 'application/json', scope);
      if (answer.status !== 200) throw this.unexpected(answer, what, notFound);
      const items = (this.json(answer.body, what) as Record<string, unknown>)[member];
      if (items !== null && items !== undefined && !(Array.isArray(items) && items.every((i) => typeof i === 'string'))) {
        throw new RegistryError('malformed', `The registry sent ${what} in a form edgeplane does not read.`);
      }
      out.push(...((items as string[] | null) ?? []));
      const next = nextLink(answer.headers.get('link'));
      path = next === undefined ? undefined : this.samePlace(location, next);
    }
    return out;
  }

  /** A follow-up path the registry named, kept on the registry itself. */
  private samePlace(location: RegistryLocation, target: string): string {
    const url = new URL(target, location.baseUrl);
    if (url.origin !== new URL(location.baseUrl).origin || !url.pathname.startsWith('/v2/')) {
      throw new RegistryError('malformed', 'The registry pointed the next page elsewhere.');
    }
    return `${url.pathname}${url.search}`;
  }

  private json(body: Buffer, what: string): unknown {
    try {
      return JSON.parse(body.toString('utf8'));
    } catch {
      throw new RegistryError('malformed', `The registry sent ${what} as something other than JSON.`);
    }
  }

  /** The error for an answer that is not the one expected, from its status and the distribution API's error codes. */
  private unexpected(answer: Answer, what: string, notFound: 'unsupported' | 'unknown' = 'unknown'): RegistryError {
    let codes: string[] = [];
    try {
      const body = JSON.parse(answer.body.toString('utf8')) as { errors?: { code?: unknown }[] };
      codes = (body.errors ?? []).map((e) => String(e.code));
    } catch {
      // No error body (a HEAD answer, a proxy's page): the status alone tells.
    }
    if (answer.status === 401 || answer.status === 403 || codes.includes('DENIED') || codes.includes('UNAUTHORIZED')) {
      return new RegistryError('refused', `The registry refused access to ${what}.`);
    }
    if (codes.includes('UNSUPPORTED') || (answer.status === 404 && notFound === 'unsupported') || answer.status === 405) {
      return new RegistryError('unsupported', `The registry does not offer ${what}.`);
    }
    if (answer.status === 404) {
      const missing = codes.includes('NAME_UNKNOWN')
        ? 'repository'
        : codes.includes('MANIFEST_UNKNOWN') || codes.includes('BLOB_UNKNOWN')
          ? 'reference'
          : undefined;
      return new RegistryError('unknown', `The registry does not have ${what}.`, missing);
    }
    return new RegistryError('malformed', `The registry answered ${answer.status} when asked for ${what}.`);
  }

  /**
   * One exchange, signing in as the registry asks: a 401 naming a token realm gets a token (with
   * the credentials when there are any) and the request again; one asking for Basic gets the
   * credentials. A second refusal is the answer.
   */
  private async send(location: RegistryLocation, path: string, method: 'GET' | 'HEAD', accept: string | undefined, scope: string | undefined): Promise<Answer> {
    const url = `${location.baseUrl}${path}`;
    const cacheKey = this.tokenKey(location, scope);
    const cached = this.tokens.getFresh(cacheKey, Date.now());
    const first = await this.exchange(url, method, accept, cached ? `Bearer ${cached.token}` : undefined);
    if (first.status !== 401) return first;
    const challenge = parseChallenge(first.headers.get('www-authenticate') ?? '');
    const { credentials } = location;
    if (challenge?.scheme === 'bearer' && challenge.params['realm']) {
      const token = await this.token(challenge.params, scope ?? challenge.params['scope'], credentials);
      this.tokens.set(cacheKey, { token: token.token, until: Date.now() + token.expiresInSeconds * 1000 - 5000 });
      return this.exchange(url, method, accept, `Bearer ${token.token}`);
    }
    if (challenge?.scheme === 'basic' && credentials) return this.exchange(url, method, accept, basic(credentials));
    throw new RegistryError('refused', credentials ? 'The registry refused the credentials.' : 'The registry needs credentials; add them to the registry.');
  }

  private async token(
    params: Record<string, string>,
    scope: string | undefined,
    credentials: RegistryCredentials | null,
  ): Promise<{ token: string; expiresInSeconds: number }> {
    let realm: URL;
    try {
      realm = new URL(params['realm']!);
    } catch {
      throw new RegistryError('malformed', 'The registry named a sign-in address that is not a URL.');
    }
    if (realm.protocol !== 'https:' && realm.protocol !== 'http:')
      throw new RegistryError('malformed', 'The registry named a sign-in address that is not HTTP.');
    if (params['service']) realm.searchParams.set('service', params['service']);
    if (scope) realm.searchParams.set('scope', scope);
    const answer = await this.exchange(realm.toString(), 'GET', 'application/json', credentials ? basic(credentials) : undefined);
    if (answer.status === 401 || answer.status === 403) {
      throw new RegistryError('refused', credentials ? 'The registry refused the credentials.' : 'The registry needs credentials; add them to the registry.');
    }
    if (answer.status !== 200) throw new RegistryError('malformed', `The registry's sign-in service answered ${answer.status}.`);
    const body = this.json(answer.body, 'a sign-in token') as { token?: unknown; access_token?: unknown; expires_in?: unknown };
    const token = typeof body.token === 'string' ? body.token : typeof body.access_token === 'string' ? body.access_token : undefined;
    if (!token) throw new RegistryError('malformed', "The registry's sign-in service sent no token.");
    // The token specification's default lifetime.
    const expiresInSeconds = typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : 60;
    return { token, expiresInSeconds };
  }

  private tokenKey(location: RegistryLocation, scope: string | undefined): string {
    const who = location.credentials ? createHash('sha256').update(`${location.credentials.userName}\0${location.credentials.password}`).digest('hex') : '';
    return `${location.baseUrl}|${who}|${scope ?? ''}`;
  }

  private async exchange(url: string, method: 'GET' | 'HEAD', accept: string | undefined, authorization: string | undefined): Promise<Answer> {
    const headers: Record<string, string> = { 'user-agent': 'edgeplane' };
    if (accept) headers['accept'] = accept;
    if (authorization) headers['authorization'] = authorization;
    let response: Response;
    const signal = AbortSignal.timeout(this.timeoutMs);
    try {
      // Blobs are often served from elsewhere; fetch drops the Authorization header when a redirect leaves the registry's origin.
      response = await fetch(url, { method, headers, redirect: 'follow', signal });
    } catch (error) {
      throw new RegistryError('unreachable', `The registry at ${new URL(url).host} could not be reached (${reasonOf(error)}).`);
    }
    const body = method === 'HEAD' ? Buffer.alloc(0) : await this.bounded(response, signal);
    return { status: response.status, headers: response.headers, body };
  }

  private async bounded(response: Response, signal: AbortSignal): Promise<Buffer> {
    const declared = Number(response.headers.get('content-length') ?? 0);
    if (declared > this.maxBytes) {
      await response.body?.cancel();
      throw new RegistryError('malformed', `The registry sent an answer larger than ${this.maxBytes} bytes.`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of response.body ?? []) {
        size += chunk.length;
        if (size > this.maxBytes) {
          await response.body?.cancel();
          throw new RegistryError('malformed', `The registry sent an answer larger than ${this.maxBytes} bytes.`);
        }
        chunks.push(Buffer.from(chunk));
      }
    } catch (error) {
      if (error instanceof RegistryError) throw error;
      throw new RegistryError('unreachable', `The registry stopped answering (${signal.aborted ? 'timed out' : reasonOf(error)}).`);
    }
    return Buffer.concat(chunks);
  }
}

const basic = (c: RegistryCredentials) => `Basic ${Buffer.from(`${c.userName}:${c.password}`).toString('base64')}`;

/** A short, safe reason: the error's code (ECONNREFUSED, ENOTFOUND…), never a message that might echo a response. */
function reasonOf(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } }).cause;
  if (typeof cause?.code === 'string') return cause.code;
  if ((error as { name?: unknown }).name === 'TimeoutError') return 'timed out';
  return 'connection failed';
}
