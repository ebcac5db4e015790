/**
 * Edge rules over real HTTP, added through the API (edgerules/addOrUpdate): a representative set of
 * triggers and actions changes what a real client gets from a real origin, and stops when the rule
 * is disabled. Every trigger and action is gone through in test/domain/edge-policy/.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../helpers/app.js';
import { createPullZone, type EdgePlane, startEdgePlane, startOrigin, type TestOrigin, type TestPullZone } from '../../helpers/edge-plane.js';

const run = promisify(execFile);

let t: TestContext;
let edge: EdgePlane;
let origin: TestOrigin;

beforeAll(async () => {
  t = await createTestApp();
  origin = await startOrigin((req, res) => {
    if (req.url?.startsWith('/missing')) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not here');
      return;
    }
    const type = req.url?.endsWith('.png') ? 'image/png' : 'text/plain';
    res.writeHead(200, { 'content-type': type, 'cache-control': 'max-age=60', 'x-seen-tenant': String(req.headers['x-tenant'] ?? '') });
    res.end(`origin ${req.url}`);
  });
  edge = await startEdgePlane(t);
});
afterAll(async () => {
  await edge?.close();
  await origin?.close();
  await t?.close();
});

interface RuleInput {
  ActionType: number;
  ActionParameter1?: string;
  ActionParameter2?: string;
  Triggers: { Type: number; PatternMatches: string[]; PatternMatchingType?: number; Parameter1?: string }[];
  TriggerMatchingType?: number;
  ExtraActions?: { ActionType: number; ActionParameter1?: string; ActionParameter2?: string }[];
  OrderIndex?: number;
}

async function addRule(zone: TestPullZone, input: RuleInput): Promise<string> {
  const body = {
    ActionParameter1: '',
    ActionParameter2: '',
    TriggerMatchingType: 0,
    Enabled: true,
    Description: 'test rule',
    ...input,
    Triggers: input.Triggers.map((tr) => ({ PatternMatchingType: 0, Parameter1: '', ...tr })),
  };
  const res = await t.post(`/pullzone/${zone.Id}/edgerules/addOrUpdate`, body);
  if (res.status !== 201) throw new Error(`edge rule: ${res.status} ${JSON.stringify(res.body)}`);
  return (res.body as { Guid: string }).Guid;
}

async function setEnabled(zone: TestPullZone, guid: string, value: boolean) {
  const res = await t.post(`/pullzone/${zone.Id}/edgerules/${guid}/setEdgeRuleEnabled`, { Value: value });
  expect(res.status).toBeLessThan(300);
}

describe('BlockRequest on a Url trigger', () => {
  it('refuses the matching paths with 403, and stops once the rule is disabled', async () => {
    const zone = await createPullZone(t, 'rules-block', origin.url);
    const guid = await addRule(zone, { ActionType: 4, Triggers: [{ Type: 0, PatternMatches: ['/private/*'] }] });
    expect((await edge.get(zone.host, '/private/a.txt')).status).toBe(403);
    expect((await edge.get(zone.host, '/public/a.txt')).status).toBe(200);
    await setEnabled(zone, guid, false);
    expect((await edge.get(zone.host, '/private/a.txt')).status).toBe(200);
  });
});

describe('Redirect', () => {
  it('answers the status in ActionParameter2 with the target in ActionParameter1, variables expanded (curl)', async () => {
    const zone = await createPullZone(t, 'rules-redirect', origin.url);
    await addRule(zone, {
      ActionType: 1,
      ActionParameter1: 'https://new.example.com{{path}}',
      ActionParameter2: '308',
      Triggers: [{ Type: 0, PatternMatches: ['/old/*'] }],
    });
    const { stdout } = await run('curl', [
      '-s',
      '-o',
      '/dev/null',
      '-H',
      `Host: ${zone.host}`,
      '-w',
      '%{http_code} %{redirect_url}',
      `http://127.0.0.1:${edge.port}/old/page.html?x=1`,
    ]);
    expect(stdout).toBe('308 https://new.example.com/old/page.html?x=1');
  });

  it('on a StatusCode trigger, turns the origin’s 404 into a redirect', async () => {
    const zone = await createPullZone(t, 'rules-404', origin.url);
    await addRule(zone, { ActionType: 1, ActionParameter1: `http://${zone.host}/`, ActionParameter2: '302', Triggers: [{ Type: 8, PatternMatches: ['404'] }] });
    const res = await edge.get(zone.host, '/missing/page');
    expect(res.status).toBe(302);
    expect(res.headers['location']).toBe(`http://${zone.host}/`);
    expect((await edge.get(zone.host, '/there')).status).toBe(200);
  });
});

describe('ForceSSL', () => {
  it('redirects plain HTTP to HTTPS for the matching requests', async () => {
    const zone = await createPullZone(t, 'rules-ssl', origin.url);
    await addRule(zone, { ActionType: 0, Triggers: [{ Type: 0, PatternMatches: ['/secure/*'] }] });
    const res = await edge.get(zone.host, '/secure/a.txt?q=1');
    expect(res.status).toBe(301);
    expect(res.headers['location']).toMatch(new RegExp(`^https://${zone.host.replace(/\./g, '\\.')}(:\\d+)?/secure/a\\.txt\\?q=1$`));
    expect((await edge.get(zone.host, '/open/a.txt')).status).toBe(200);
  });
});

describe('headers', () => {
  it('SetRequestHeader reaches the origin; SetResponseHeader reaches the client (a RequestHeader trigger, MatchAll)', async () => {
    const zone = await createPullZone(t, 'rules-headers', origin.url);
    await addRule(zone, {
      ActionType: 6,
      ActionParameter1: 'X-Tenant',
      ActionParameter2: 'acme',
      ExtraActions: [{ ActionType: 5, ActionParameter1: 'X-Edge-Rule', ActionParameter2: 'applied' }],
      TriggerMatchingType: 1,
      Triggers: [
        { Type: 1, Parameter1: 'X-Client', PatternMatches: ['app-*'] },
        { Type: 3, PatternMatches: ['txt'] },
      ],
    });
    const matched = await edge.get(zone.host, '/h/a.txt', { 'x-client': 'app-ios' });
    expect(matched.headers['x-seen-tenant']).toBe('acme');
    expect(matched.headers['x-edge-rule']).toBe('applied');
    const unmatched = await edge.get(zone.host, '/h/b.txt', { 'x-client': 'web' });
    expect(unmatched.headers['x-seen-tenant']).toBe('');
    expect(unmatched.headers['x-edge-rule']).toBeUndefined();
  });

  it('a ResponseHeader trigger decides on the origin’s answer: ForceDownload for images', async () => {
    const zone = await createPullZone(t, 'rules-download', origin.url);
    await addRule(zone, { ActionType: 7, Triggers: [{ Type: 2, Parameter1: 'Content-Type', PatternMatches: ['image/*'] }] });
    expect((await edge.get(zone.host, '/d/a.png')).headers['content-disposition']).toBe('attachment');
    expect((await edge.get(zone.host, '/d/a.txt')).headers['content-disposition']).toBeUndefined();
  });
});

describe('cache and origin actions', () => {
  it('OverrideCacheTime 0 sends every matching request to the origin', async () => {
    const zone = await createPullZone(t, 'rules-nocache', origin.url);
    await addRule(zone, { ActionType: 3, ActionParameter1: '0', Triggers: [{ Type: 0, PatternMatches: ['/live/*'] }] });
    const before = origin.requests.length;
    for (let i = 0; i < 3; i++) expect((await edge.get(zone.host, '/live/now.json')).headers['cdn-cache']).toBe('BYPASS');
    expect(origin.requests.length - before).toBe(3);
    await edge.get(zone.host, '/static/a.txt');
    expect((await edge.get(zone.host, '/static/a.txt')).headers['cdn-cache']).toBe('HIT');
  });

  it('OverrideCacheTime in a rule with a ResponseHeader trigger: the origin’s answer decides whether it is kept', async () => {
    const zone = await createPullZone(t, 'rules-nocache-images', origin.url);
    await addRule(zone, { ActionType: 3, ActionParameter1: '0', Triggers: [{ Type: 2, Parameter1: 'Content-Type', PatternMatches: ['image/*'] }] });
    const before = origin.requests.length;
    for (let i = 0; i < 2; i++) expect((await edge.get(zone.host, '/r/pic.png')).headers['cdn-cache']).toBe('BYPASS');
    expect(origin.requests.length - before).toBe(2);
    await edge.get(zone.host, '/r/page.txt');
    expect((await edge.get(zone.host, '/r/page.txt')).headers['cdn-cache']).toBe('HIT');
  });

  it('IgnoreQueryString makes one cached copy for every query', async () => {
    const zone = await createPullZone(t, 'rules-noquery', origin.url);
    await addRule(zone, { ActionType: 11, Triggers: [{ Type: 3, PatternMatches: ['css'] }] });
    expect((await edge.get(zone.host, '/s/site.css?v=1')).headers['cdn-cache']).toBe('MISS');
    expect((await edge.get(zone.host, '/s/site.css?v=2')).headers['cdn-cache']).toBe('HIT');
    await edge.get(zone.host, '/s/app.js?v=1');
    expect((await edge.get(zone.host, '/s/app.js?v=2')).headers['cdn-cache']).toBe('MISS');
  });

  it('OriginUrl fetches the matching paths from another origin', async () => {
    const other = await startOrigin((req, res) => res.end(`other ${req.url}`));
    try {
      const zone = await createPullZone(t, 'rules-origin', origin.url);
      await addRule(zone, { ActionType: 2, ActionParameter1: other.url, Triggers: [{ Type: 0, PatternMatches: ['/api/*'] }] });
      expect((await edge.get(zone.host, '/api/v1/items')).text).toBe('other /api/v1/items');
      expect((await edge.get(zone.host, '/web/index.html')).text).toBe('origin /web/index.html');
    } finally {
      await other.close();
    }
  });

  it('SetStatusCode and OverrideBrowserCacheTime change the answer', async () => {
    const zone = await createPullZone(t, 'rules-status', origin.url);
    await addRule(zone, {
      ActionType: 14,
      ActionParameter1: '410',
      ExtraActions: [{ ActionType: 16, ActionParameter1: '30' }],
      Triggers: [{ Type: 0, PatternMatches: ['/gone/*'] }],
    });
    const res = await edge.get(zone.host, '/gone/a.txt');
    expect(res.status).toBe(410);
    expect(res.headers['cache-control']).toBe('public, max-age=30');
  });
});

describe('RemoteIP and OrderIndex', () => {
  it('the first rule in OrderIndex order that blocks ends the request; a RemoteIP block matches the loopback client', async () => {
    const zone = await createPullZone(t, 'rules-order', origin.url);
    await addRule(zone, { ActionType: 1, ActionParameter1: 'https://elsewhere.example/', OrderIndex: 2, Triggers: [{ Type: 0, PatternMatches: ['*'] }] });
    await addRule(zone, { ActionType: 4, OrderIndex: 1, Triggers: [{ Type: 5, PatternMatches: ['127.0.0.0/8'] }] });
    expect((await edge.get(zone.host, '/x')).status).toBe(403);
  });
});
