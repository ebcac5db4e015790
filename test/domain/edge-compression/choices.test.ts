/**
 * Compression's choices case by case (test/planes/edge/compression.test.ts shows them over real
 * sockets): the coding an Accept-Encoding gets, what compresses, the headers of an encoded
 * representation, and a copy's compressed bytes charged to the cache.
 */
import { describe, expect, it } from 'vitest';
import { type CachedAnswer, EdgeCache } from '../../../src/domain/edge/cache/edge-cache.js';
import { negotiateCoding } from '../../../src/domain/edge/compression/accept-encoding.js';
import { compressibilityOf } from '../../../src/domain/edge/compression/compressible.js';
import { encodedEtag, markEncoded, varyWithAcceptEncoding } from '../../../src/domain/edge/compression/representation-headers.js';

describe('Accept-Encoding', () => {
  it('gets the best q-value, Brotli on a tie, identity when nothing offered is acceptable', () => {
    expect(negotiateCoding(undefined)).toBeUndefined();
    expect(negotiateCoding('')).toBeUndefined();
    expect(negotiateCoding('GZIP')).toBe('gzip');
    expect(negotiateCoding('gzip;q=1.0, br;q=1')).toBe('br');
    expect(negotiateCoding('gzip ; q=0.9, br ;q=0.8')).toBe('gzip');
    expect(negotiateCoding('br;q=0.001')).toBe('br');
    expect(negotiateCoding('gzip;q=0.5, gzip;q=0')).toBe('gzip');
    expect(negotiateCoding('br;q=2, gzip;q=abc, deflate')).toBeUndefined();
    expect(negotiateCoding('identity;q=0')).toBeUndefined();
    expect(negotiateCoding('*;q=0.5, identity;q=1')).toBeUndefined();
    expect(negotiateCoding('*;q=0.5, gzip;q=0.7')).toBe('gzip');
  });
});

describe('what compresses', () => {
  const answer = (headers: Record<string, string>, status = 200, length = 4096) => compressibilityOf(status, headers, length);

  it('by type: text (not event streams), scripts, JSON and XML with their suffixes, wasm, uncompressed fonts', () => {
    for (const type of [
      'text/html; charset=utf-8',
      'TEXT/CSS',
      'application/javascript',
      'application/ld+json',
      'image/svg+xml',
      'application/wasm',
      'font/ttf',
      'application/vnd.apple.mpegurl',
    ]) {
      expect(answer({ 'content-type': type }), type).toBe('by-type');
    }
    for (const type of ['text/event-stream', 'image/png', 'font/woff2', 'video/mp4', 'application/zip'])
      expect(answer({ 'content-type': type }), type).toBe('if-forced');
    expect(answer({})).toBe('if-forced');
  });

  it('never: not a whole 200, under 1 KiB, encoded by the origin, no-transform, a part', () => {
    const css = { 'content-type': 'text/css' };
    expect(answer(css, 206)).toBe('never');
    expect(answer(css, 404)).toBe('never');
    expect(answer(css, 200, 1023)).toBe('never');
    expect(answer(css, 200, 1024)).toBe('by-type');
    expect(compressibilityOf(200, css, undefined)).toBe('by-type');
    expect(answer({ ...css, 'content-encoding': 'gzip' })).toBe('never');
    expect(answer({ ...css, 'content-encoding': 'identity' })).toBe('by-type');
    expect(answer({ ...css, 'cache-control': 'public, no-transform' })).toBe('never');
    expect(answer({ ...css, 'content-range': 'bytes 0-9/20' })).toBe('never');
  });
});

describe('headers of an encoded representation', () => {
  it('add Accept-Encoding to Vary once, tag the ETag with the coding, drop what describes the identity bytes', () => {
    expect(varyWithAcceptEncoding(undefined)).toBe('Accept-Encoding');
    expect(varyWithAcceptEncoding('Origin')).toBe('Origin, Accept-Encoding');
    expect(varyWithAcceptEncoding('origin, accept-encoding')).toBe('origin, accept-encoding');
    expect(varyWithAcceptEncoding('*')).toBe('*');
    expect([encodedEtag('"a"', 'br'), encodedEtag('W/"a"', 'gzip'), encodedEtag('a', 'gzip'), encodedEtag(undefined, 'gzip')]).toEqual([
      '"a-br"',
      'W/"a-gzip"',
      undefined,
      undefined,
    ]);
    const headers = { 'content-type': 'text/css', etag: '"v"', 'content-length': '9', 'accept-ranges': 'bytes', 'content-md5': 'x' };
    expect(markEncoded(headers, 'gzip')).toEqual({ 'content-type': 'text/css', etag: '"v-gzip"', vary: 'Accept-Encoding', 'content-encoding': 'gzip' });
  });
});

describe('the cache', () => {
  const copy = (bytes: number): CachedAnswer => ({
    zoneId: 1,
    status: 200,
    headers: {},
    body: Buffer.alloc(bytes),
    storedAt: 0,
    expiresAt: 1,
    etag: undefined,
    lastModified: undefined,
    purgeSeq: 0,
    path: '/a',
    query: '',
  });

  it('counts compressed bytes charged to a copy it holds, gives them back with the copy, and makes room for them', () => {
    const cache = new EdgeCache(64 * 1024);
    const a = copy(6000);
    const b = copy(6000);
    cache.set('a', a);
    cache.set('b', b);
    const held = cache.bytes;
    expect(cache.charge(a, 1000)).toBe(true);
    expect(cache.bytes).toBe(held + 1000);
    cache.delete('a');
    expect(cache.charge(a, 1000)).toBe(false);
    expect(cache.bytes).toBe(held - 6000 - 'a'.length - 512);
    // Charging past the bound drops the least recently used copies, as a new one would.
    for (let i = 0; i < 8; i++) cache.set(`c${i}`, copy(6000));
    cache.charge(b, 8000);
    expect(cache.bytes).toBeLessThanOrEqual(cache.maxBytes);
  });
});
