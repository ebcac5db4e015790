/**
 * The edge's compression (domain/edge/compression/), between the copy or the origin's answer and
 * the deliver step: which representation a request gets, and the compressed forms of each copy,
 * each made once and kept with it.
 *
 * A cached copy that may be compressed (compressible.ts) gets a representation per coding, made the
 * first time a request wants it (compressed on the thread pool; requests wanting it meanwhile wait
 * for the same compression), then kept beside the copy (WeakMap: gone with it) and charged to the
 * cache's size. The identity representation of such a copy is one too: the copy's headers with
 * `Vary: Accept-Encoding`. Every representation's headers are made once, so a hit wanting gzip is
 * the same work as a hit wanting identity: a clone of prepared headers and a buffer. A compressed
 * form no smaller than the copy is not kept: identity stands for that coding.
 *
 * A request with `Range` gets the identity representation (its ranges are the copy's bytes). An
 * answer passing through (not kept: a pass, an answer too big for the cache, one client's own) is
 * compressed as it streams, by a zlib stream.
 */
import { pipeline, type Readable } from 'node:stream';
import { BoundedMap } from '../../domain/bounded-map.js';
import type { CachedAnswer, EdgeCache } from '../../domain/edge/cache/edge-cache.js';
import { type Coding, negotiateCoding } from '../../domain/edge/compression/accept-encoding.js';
import { type Compressibility, compressibilityOf, compresses } from '../../domain/edge/compression/compressible.js';
import { compressBody, compressingStream } from '../../domain/edge/compression/compressors.js';
import { encodedEtag, markEncoded, varyWithAcceptEncoding } from '../../domain/edge/compression/representation-headers.js';
import type { EdgeRequest, RuleEffects } from '../../domain/edge/types.js';
import { wholeAnswerTemplate } from './from-cache.js';
import type { Representation } from './types.js';

/** The representations of one copy: identity, and per coding the one made (or being made). */
interface Forms {
  compressibility: Compressibility;
  identity: Representation;
  encoded: Partial<Record<Coding, Representation | Promise<Representation>>>;
}

/** Distinct Accept-Encoding values remembered with their coding (clients send a handful). */
const KNOWN_ACCEPTS = 256;
const NOT_COMPRESSED: Forms = Object.freeze({
  compressibility: 'never',
  identity: Object.freeze({ body: Buffer.alloc(0), headers: {}, etag: undefined }),
  encoded: {},
});

export class EdgeCompression {
  /** Copies compressed (one per copy and coding) and answers compressed as they streamed: tests and the bench look. */
  readonly counts = { copies: 0, streams: 0 };
  private readonly forms = new WeakMap<CachedAnswer, Forms>();
  /** Accept-Encoding → the coding it gets (null: identity). */
  private readonly accepts = new BoundedMap<string, Coding | null>(KNOWN_ACCEPTS);

  constructor(
    private readonly cache: Pick<EdgeCache, 'charge'>,
    private readonly logError: (error: unknown) => void,
  ) {}

  /** The representation of a copy the request gets; undefined: the copy as it is (never compressed). */
  forCopy(request: EdgeRequest, effects: RuleEffects, entry: CachedAnswer): Representation | Promise<Representation> | undefined {
    let forms = this.forms.get(entry);
    if (forms === undefined) {
      forms = formsOf(entry);
      this.forms.set(entry, forms);
    }
    if (!compresses(forms.compressibility, effects.forceCompression)) return undefined;
    const coding = request.headers['range'] === undefined ? this.codingFor(request.headers['accept-encoding']) : undefined;
    if (coding === undefined) return forms.identity;
    return (forms.encoded[coding] ??= this.encode(entry, forms, coding));
  }

  /**
   * An answer passing through: its headers changed in place (Vary; the coding's, when the client
   * accepts one) and its body compressed as it streams. HEAD gets the headers a GET would.
   */
  forStream(request: EdgeRequest, effects: RuleEffects, status: number, headers: Record<string, string | string[]>, body: Readable): Readable {
    if (request.headers['range'] !== undefined) return body;
    const declared = headers['content-length'];
    const length = typeof declared === 'string' && declared !== '' ? Number(declared) : undefined;
    if (!compresses(compressibilityOf(status, headers, length), effects.forceCompression)) return body;
    const coding = this.codingFor(request.headers['accept-encoding']);
    if (coding === undefined) {
      headers['vary'] = varyWithAcceptEncoding(headers['vary']);
      return body;
    }
    markEncoded(headers, coding);
    if (request.method === 'HEAD') return body;
    this.counts.streams++;
    const compressed = compressingStream(coding);
    // An origin that breaks off ends the compressed stream with its error (the listener logs it); a client leaving ends both.
    pipeline(body, compressed, () => {});
    return compressed;
  }

  private codingFor(acceptEncoding: string | undefined): Coding | undefined {
    if (acceptEncoding === undefined) return undefined;
    let coding = this.accepts.get(acceptEncoding);
    if (coding === undefined) {
      coding = negotiateCoding(acceptEncoding) ?? null;
      this.accepts.set(acceptEncoding, coding);
    }
    return coding ?? undefined;
  }

  /** Compresses the copy once for `coding`; what waits meanwhile shares it. A failure (logged) or no gain leaves identity for the coding. */
  private encode(entry: CachedAnswer, forms: Forms, coding: Coding): Promise<Representation> {
    this.counts.copies++;
    return compressBody(entry.body, coding).then(
      (bytes) => {
        const made = bytes.length < entry.body.length ? encodedRepresentation(entry, coding, bytes) : forms.identity;
        forms.encoded[coding] = made;
        if (made !== forms.identity) this.cache.charge(entry, bytes.length);
        return made;
      },
      (error: unknown) => {
        this.logError(error);
        forms.encoded[coding] = forms.identity;
        return forms.identity;
      },
    );
  }
}

function formsOf(entry: CachedAnswer): Forms {
  const compressibility = compressibilityOf(entry.status, entry.headers, entry.body.length);
  if (compressibility === 'never') return NOT_COMPRESSED;
  const vary = Object.freeze({ vary: varyWithAcceptEncoding(entry.headers['vary']), 'accept-ranges': 'bytes' });
  return {
    compressibility,
    identity: { body: entry.body, headers: wholeAnswerTemplate(entry.headers, entry.body.length, vary), etag: entry.etag },
    encoded: {},
  };
}

function encodedRepresentation(entry: CachedAnswer, coding: Coding, bytes: Buffer): Representation {
  // Marked on a copy (deleting turns it into a slow dictionary object); the template, made from it by spread, is a fast one again.
  const headers = wholeAnswerTemplate(markEncoded({ ...entry.headers }, coding), bytes.length, NO_EXTRA);
  return { body: bytes, headers, etag: encodedEtag(entry.etag, coding) };
}

const NO_EXTRA = Object.freeze({});
