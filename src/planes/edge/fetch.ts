/**
 * The fetch step (Varnish's vcl_miss, vcl_pass and vcl_backend_fetch): asks the origin
 * (ask-origin.ts) for a pass, the origin or the origin shield (ask-upstream.ts) for a miss or a
 * refresh, and keeps the answer when it may be kept (freshness.ts, placement.ts): under the plain
 * key, or its variant's (`Vary`). A zone with a perma-cache answers a miss or a refresh from it
 * when it holds the file, and has an origin answer written to it after (domain/edge/perma-cache/).
 *
 * With `EnableRequestCoalescing`, concurrent misses of one key wait for one origin request, and
 * take its answer when it is theirs too: not one client's own (freshness.ts), and of their
 * variant. A request with credentials the key does not tell apart neither waits for others nor is
 * waited for. An answer too big to buffer is streamed, and fetched again by each waiter.
 */
import { PassThrough, Readable } from 'node:stream';
import type { CachedAnswer, EdgeCache } from '../../domain/edge/cache/edge-cache.js';
import { edgeLifetime } from '../../domain/edge/cache/freshness.js';
import type { KeyedRequest } from '../../domain/edge/cache/key.js';
import { placementOf, sharedWith } from '../../domain/edge/cache/placement.js';
import type { OriginAddresses } from '../../domain/edge/origin/addresses.js';
import type { OriginErrorLog } from '../../domain/edge/origin/origin-errors.js';
import type { ContainerOrigins } from '../../domain/edge/containers/container-origin.js';
import type { PermaCache } from '../../domain/edge/perma-cache/perma-cache.js';
import { passedAnswerHeaders } from '../../domain/edge/origin/headers.js';
import type { OriginShield } from '../../domain/edge/shield/origin-shield.js';
import type { EdgePolicy } from '../../domain/edge/types.js';
import type { FileService } from '../../domain/files/service.js';
import type { ScriptRuntime } from '../../domain/edge/scripts/runtime/script-runtime.js';
import { askOrigin, type OriginOutcome } from './ask-origin.js';
import { askForFill } from './ask-upstream.js';
import type { Admitted, Fetched, Fill, Lookup } from './types.js';

export interface FetchDeps {
  files: FileService;
  cache: EdgeCache;
  policy: EdgePolicy;
  /** Which addresses an HTTP origin may be at. */
  originAddresses?: OriginAddresses | undefined;
  /** The container endpoints' ready replicas (zones in front of one). */
  containerOrigins?: ContainerOrigins | undefined;
  /** The zones' perma-cache: read on a miss before the origin, written after. */
  permaCache: PermaCache;
  /** The origin shield a zone's fills go through (ask-upstream.ts). */
  shield?: OriginShield | undefined;
  /** The edge scripts' runtime (ask-script.ts). */
  scripts?: ScriptRuntime | undefined;
  /** Where failed origin requests are recorded (the zones' origin errors). */
  originErrors?: OriginErrorLog | undefined;
  logError: (error: unknown) => void;
  now: () => number;
}

export class OriginFetches {
  /** Origin requests in flight that others wait for, by the key looked up. */
  private readonly fills = new Map<string, Promise<Fill>>();

  constructor(private readonly deps: FetchDeps) {}

  get inFlight(): number {
    return this.fills.size;
  }

  /** A miss: the origin's answer, or the copy the origin request it waited for left (coalescing). */
  async miss(admitted: Admitted, miss: Lookup & { kind: 'miss' }): Promise<Fetched> {
    const { key, keyed } = miss;
    const coalesce = !keyed.credentialed && (admitted.effects.requestCoalescing ?? admitted.routed.zone.EnableRequestCoalescing);
    const running = coalesce ? this.fills.get(key) : undefined;
    if (running) {
      const shared = await waitAtMost(running, admitted.routed.zone.RequestCoalescingTimeout);
      // A copy is what the waiters share when it is theirs too; an answer too big to buffer is fetched again by each.
      if (shared?.kind === 'copy' && sharedWith(shared.sharing, keyed.key, admitted.request)) {
        return { kind: 'shared', entry: shared.entry, stored: shared.stored };
      }
      if (shared?.kind === 'failed') return shared;
      return this.fill(admitted, keyed, false);
    }
    return coalesce ? this.fillOnce(admitted, key, keyed) : this.fill(admitted, keyed, false);
  }

  /** An expired copy served while it is refreshed (UseStaleWhileUpdating): one refresh at a time per key, in the background. */
  refresh(admitted: Admitted, updating: Lookup & { kind: 'updating' }): void {
    const { key, keyed } = updating;
    if (this.fills.has(key)) return;
    const refresh = keyed.credentialed ? this.fill(admitted, keyed, false) : this.fillOnce(admitted, key, keyed);
    void refresh.then(drop, this.deps.logError);
  }

  /** A request the cache does not answer: the origin's answer passes through, never kept. */
  async pass(admitted: Admitted): Promise<Fill> {
    const outcome = await askOrigin(this.deps.files, {
      ...admitted,
      fillsCache: false,
      originAddresses: this.deps.originAddresses,
      scripts: this.deps.scripts,
      containerOrigins: this.deps.containerOrigins,
      originErrors: this.deps.originErrors,
    });
    if (!outcome.ok) return { kind: 'failed', status: outcome.status, message: outcome.message, report: outcome.report };
    return streamed(outcome, passedAnswerHeaders(outcome.headers, admitted.routed.zone.DisableCookies));
  }

  /** One origin request for the key looked up, which concurrent misses wait for (the answer is buffered for them all). */
  private fillOnce(admitted: Admitted, key: string, keyed: KeyedRequest): Promise<Fill> {
    const promise = this.fill(admitted, keyed, true);
    this.fills.set(key, promise);
    const done = () => {
      if (this.fills.get(key) === promise) this.fills.delete(key);
    };
    promise.then(done, done);
    return promise;
  }

  /** Asks the origin and keeps the answer when it may be kept: under the plain key, or its variant's (`Vary`). */
  private async fill(admitted: Admitted, keyed: KeyedRequest, shared: boolean): Promise<Fill> {
    const { routed, effects } = admitted;
    const zone = routed.zone;
    const purgeSeq = routed.purges.seq;
    const perma = await this.deps.permaCache.placeOf(routed, effects, keyed, admitted.path);
    const permaHit = perma && (await this.deps.permaCache.read(perma));
    const ask = {
      ...admitted,
      fillsCache: true,
      originAddresses: this.deps.originAddresses,
      scripts: this.deps.scripts,
      containerOrigins: this.deps.containerOrigins,
      originErrors: this.deps.originErrors,
    };
    const outcome: OriginOutcome = permaHit ? { ok: true, ...permaHit, report: undefined } : await askForFill(this.deps.files, this.deps.shield, ask);
    if (!outcome.ok) return { kind: 'failed', status: outcome.status, message: outcome.message, report: outcome.report, retryAfter: outcome.retryAfter };
    const now = this.deps.now();
    const ruleSeconds = this.deps.policy.cacheTimeFor(zone, admitted.request, { status: outcome.status, headers: () => textOf(outcome.headers) }, effects);
    const decision = edgeLifetime(
      { status: outcome.status, headers: outcome.headers },
      {
        maxAgeOverride: zone.CacheControlMaxAgeOverride,
        ruleSeconds,
        cacheErrors: zone.CacheErrorResponses,
        disableCookies: zone.DisableCookies,
        credentialed: keyed.credentialed,
      },
      now,
    );
    const { store, key, variantOf, sharing } = placementOf(decision, outcome.headers['vary'], routed.keyRules, keyed, admitted.request, admitted.path);
    const headers = passedAnswerHeaders(outcome.headers, zone.DisableCookies);
    if (perma) headers['perma-cache'] = permaHit ? 'HIT' : 'MISS';
    const declared = Number(headers['content-length'] ?? Number.NaN);
    const limit = this.deps.cache.maxEntryBytes;
    if ((!store && (!shared || sharing.kind === 'none')) || declared > limit) return streamed(outcome, headers);
    const buffered = await bufferUpTo(outcome.body, limit).catch((error: Error) => error);
    if (buffered instanceof Error) {
      return { kind: 'failed', status: 502, message: `The origin broke off its answer: ${buffered.message}.`, report: outcome.report };
    }
    if (buffered.rest) return { kind: 'stream', status: outcome.status, headers, body: buffered.rest, report: outcome.report };
    delete headers['content-length'];
    const lastModified = Date.parse(String(headers['last-modified'] ?? ''));
    const entry: CachedAnswer = {
      zoneId: routed.id,
      status: outcome.status,
      headers,
      body: buffered.bytes,
      storedAt: now,
      expiresAt: store && decision.store ? now + decision.seconds * 1000 : now,
      etag: typeof headers['etag'] === 'string' ? headers['etag'] : undefined,
      lastModified: Number.isNaN(lastModified) ? undefined : new Date(lastModified),
      purgeSeq,
      path: admitted.path,
      query: keyed.query,
      variantOf,
    };
    const stored = store && this.deps.cache.set(key, entry);
    if (perma && !permaHit) {
      const keptUnderPlainKey = store && variantOf === undefined;
      this.deps.permaCache.keep(perma, {
        status: outcome.status,
        headers: outcome.headers,
        body: buffered.bytes,
        credentialed: keyed.credentialed,
        keptUnderPlainKey,
      });
    }
    return { kind: 'copy', entry, stored, sharing, report: outcome.report };
  }
}

function streamed(outcome: OriginOutcome & { ok: true }, headers: Record<string, string | string[]>): Fill {
  const body = Buffer.isBuffer(outcome.body) ? bytesStream(outcome.body) : outcome.body;
  return { kind: 'stream', status: outcome.status, headers, body, report: outcome.report };
}

/** A refresh nobody waits for: a streamed answer is drained. */
const drop = (fill: Fill) => {
  if (fill.kind === 'stream') fill.body.resume();
};

async function waitAtMost<T>(promise: Promise<T>, seconds: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), (seconds > 0 ? seconds : 30) * 1000);
  });
  try {
    return await Promise.race([promise.catch(() => undefined), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Reads a body whole when it fits in `limit`; else what was read so far followed by the rest, as one stream. */
function bufferUpTo(body: Buffer | Readable, limit: number): Promise<{ bytes: Buffer; rest?: undefined } | { bytes?: undefined; rest: Readable }> {
  if (Buffer.isBuffer(body)) return Promise.resolve(body.length <= limit ? { bytes: body } : { rest: bytesStream(body) });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size <= limit) return;
      body.off('data', onData).off('end', onEnd).off('error', reject);
      body.pause();
      const rest = new PassThrough();
      for (const c of chunks) rest.write(c);
      body.pipe(rest);
      resolve({ rest });
    };
    const onEnd = () => resolve({ bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size) });
    body.on('data', onData).once('end', onEnd).once('error', reject);
  });
}

const bytesStream = (bytes: Buffer): Readable => Readable.from([bytes]);

/** An origin's headers as rules read them: a repeated header (only Set-Cookie, from node:http) joined. */
function textOf(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}
