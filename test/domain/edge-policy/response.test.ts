/** CORS (EnableAccessControlOriginHeader + extensions) and AddCanonicalHeader on the answer. */
import { describe, expect, it } from 'vitest';
import { answerFor, get, zoneWith } from './helpers.js';

const origin = (headers: Record<string, string> = {}) => ({ status: 200, headers: { 'content-type': 'application/octet-stream', ...headers } });

describe('EnableAccessControlOriginHeader with AccessControlOriginHeaderExtensions', () => {
  it('a new zone sends Access-Control-Allow-Origin on its default extensions (fonts, style sheets) only', () => {
    const zone = zoneWith();
    for (const path of ['/f/a.woff2', '/f/a.woff', '/f/a.ttf', '/f/a.eot', '/s/site.css', '/s/SITE.CSS']) {
      expect(answerFor(zone, get(path), origin()).headers['access-control-allow-origin']).toBe('*');
    }
    for (const path of ['/img/cat.jpg', '/app.js', '/', '/css', '/x.css/y']) {
      expect(answerFor(zone, get(path), origin()).headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it('follows the zone’s list, written with or without a dot and in any letter case', () => {
    const zone = zoneWith({ AccessControlOriginHeaderExtensions: ['JPG', '.png', '*.json'] });
    for (const path of ['/a.jpg', '/a.PNG', '/data/x.json']) expect(answerFor(zone, get(path), origin()).headers['access-control-allow-origin']).toBe('*');
    expect(answerFor(zone, get('/a.css'), origin()).headers['access-control-allow-origin']).toBeUndefined();
  });

  it('keeps an Access-Control-Allow-Origin the origin sent', () => {
    const zone = zoneWith();
    const { headers } = answerFor(zone, get('/f/a.woff2'), origin({ 'Access-Control-Allow-Origin': 'https://app.example' }));
    expect(headers['Access-Control-Allow-Origin']).toBe('https://app.example');
    expect(headers['access-control-allow-origin']).toBeUndefined();
  });

  it('sends nothing when turned off, or with an empty extension list', () => {
    expect(answerFor(zoneWith({ EnableAccessControlOriginHeader: false }), get('/f/a.woff2'), origin()).headers['access-control-allow-origin']).toBeUndefined();
    expect(
      answerFor(zoneWith({ AccessControlOriginHeaderExtensions: [] }), get('/f/a.woff2'), origin()).headers['access-control-allow-origin'],
    ).toBeUndefined();
  });
});

describe('AddCanonicalHeader', () => {
  it('adds a canonical Link naming the https URL of the requested host and path, without the query', () => {
    const zone = zoneWith({ AddCanonicalHeader: true });
    const { headers } = answerFor(zone, get('/docs/page.html?utm_source=x', { host: 'cdn.example.com' }), origin());
    expect(headers['link']).toBe('<https://cdn.example.com/docs/page.html>; rel="canonical"');
  });

  it('adds to a Link the origin sent', () => {
    const zone = zoneWith({ AddCanonicalHeader: true });
    const { headers } = answerFor(zone, get('/a.html'), origin({ Link: '</style.css>; rel=preload' }));
    expect(headers['link']).toBe('</style.css>; rel=preload, <https://cdn.example.com/a.html>; rel="canonical"');
    expect(headers['Link']).toBeUndefined();
  });

  it('adds nothing when turned off', () => {
    expect(answerFor(zoneWith({ AddCanonicalHeader: false }), get('/a.html'), origin()).headers['link']).toBeUndefined();
  });
});

describe('an answer nothing applies to', () => {
  it('goes out as the origin sent it', () => {
    const zone = zoneWith({ EnableAccessControlOriginHeader: false });
    const sent = origin({ 'cache-control': 'max-age=60' });
    expect(answerFor(zone, get('/a.jpg'), sent)).toMatchObject({ status: 200, headers: sent.headers });
  });
});
