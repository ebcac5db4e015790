/**
 * Edge scripts running for real at the edge, each in its own Deno process: a standalone script
 * answering JSON with a variable and a secret; a middleware script adding a header before the
 * origin and rewriting its answer; a loop cut off at the CPU bound while other requests are
 * served; a script denied files, subprocesses and edgeplane's own listeners; a crash restarted.
 */
import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../helpers/app.js';
import { createPullZone, type EdgePlane, startEdgePlane, startOrigin, type TestOrigin } from '../../helpers/edge-plane.js';

let t: TestContext;
let edge: EdgePlane;
let origin: TestOrigin;

beforeAll(async () => {
  // Short bounds: a loop is cut off after 300 ms of CPU; a slow machine still starts Deno in time.
  t = await createTestApp({ edgeScriptCpuMs: 300, edgeScriptStartupMs: 10_000 });
  edge = await startEdgePlane(t);
  origin = await startOrigin();
});
afterAll(async () => {
  await edge?.close();
  await origin?.close();
  await t?.close();
});

/** A published standalone script with its own pull zone; answers the zone's Host. */
async function standalone(name: string, code: string, setup?: (id: number) => Promise<void>): Promise<{ id: number; host: string }> {
  const created = await t.post('/compute/script', { Name: name, Code: code, ScriptType: 1, CreateLinkedPullZone: true, LinkedPullZoneName: name });
  expect(created.status).toBe(201);
  await setup?.(created.body.Id);
  expect((await t.post(`/compute/script/${created.body.Id}/publish`, {})).status).toBe(204);
  return { id: created.body.Id, host: `${name}.${t.config.cdnDomain}` };
}

describe('a standalone script', () => {
  it('answers JSON with its variable and its secret (the SDK imported by its esm.sh URL)', async () => {
    const code = `
      import * as BunnySDK from "https://esm.sh/@bunny.net/edgescript-sdk@0.11.2";
      BunnySDK.net.http.serve(async (request: Request): Promise<Response> => {
        const url = new URL(request.url);
        return Response.json({ path: url.pathname, greeting: Deno.env.get("GREETING"), token: process.env.API_TOKEN, method: request.method },
          { headers: { "cache-control": "no-store" } });
      });`;
    const s = await standalone('json-script', code, async (id) => {
      await t.post(`/compute/script/${id}/variables/add`, { Name: 'GREETING', Required: true, DefaultValue: 'hello' });
      await t.post(`/compute/script/${id}/secrets`, { Name: 'API_TOKEN', Secret: 'tok-3e5f' });
    });
    const res = await edge.get(s.host, '/some/path?x=1');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    expect(JSON.parse(res.text)).toEqual({ path: '/some/path', greeting: 'hello', token: 'tok-3e5f', method: 'GET' });

    // Counted for its statistics, from what ran.
    const stats = (await t.get(`/compute/script/${s.id}/statistics`)).body;
    expect(stats.TotalRequestsServed).toBe(1);
  });

  it('a script that throws answers a 5xx; one that loops is stopped at its CPU bound while others are served, then starts again', async () => {
    const looper = await standalone(
      'loops',
      `import * as SDK from "@bunny.net/edgescript-sdk";
       SDK.net.http.serve((req) => {
         const path = new URL(req.url).pathname;
         if (path === "/loop") { while (true) {} }
         if (path === "/throw") throw new Error("boom");
         return new Response("fine");
       });`,
    );
    expect((await edge.get(looper.host, '/warm')).text).toBe('fine');
    expect((await edge.get(looper.host, '/throw')).status).toBe(500);
    const started = Date.now();
    const looping = edge.get(looper.host, '/loop');
    // While it loops, the edge serves others (another script).
    const json = await edge.get(`json-script.${t.config.cdnDomain}`, '/');
    expect(json.status).toBe(200);
    const cut = await looping;
    expect(cut.status).toBe(503);
    expect(cut.text).toContain('CPU time limit');
    // 300 ms of CPU: a few seconds of wall time at most, even on a loaded machine.
    expect(Date.now() - started).toBeLessThan(20_000);
    // Started again on the next request.
    expect((await edge.get(looper.host, '/again')).text).toBe('fine');
  });

  it("is denied files, environment, subprocesses and edgeplane's own listeners, by address or by a name resolving to one", async () => {
    const apiPort = edge.port;
    // A name that resolves to a refused address: this machine's own name, where it resolves to
    // loopback (Debian's /etc/hosts). Deno judges the addresses a name resolves to, not only the name.
    const ownName = hostname();
    const loopbackName = await lookup(ownName).then(
      (found) => (found.address.startsWith('127.') ? ownName : ''),
      () => '',
    );
    const code = `
      import * as SDK from "@bunny.net/edgescript-sdk";
      const attempt = async (f: () => unknown) => { try { await f(); return "allowed"; } catch (e) { return (e as Error).name; } };
      // fetch reports a refused resolved address as a TypeError whose cause says so.
      const refusedCause = async (f: () => unknown) => { try { await f(); return "allowed"; } catch (e) { return /Requires net access/.test(String((e as Error & { cause?: Error }).cause?.message)) ? "NotCapable" : (e as Error).name; } };
      SDK.net.http.serve(async () => Response.json({
        read: await attempt(() => Deno.readTextFile("/etc/passwd")),
        write: await attempt(() => Deno.writeTextFile("/tmp/edgeplane-script-write", "x")),
        // Listing the environment is denied; a name that is not one of the script's variables reads as unset.
        env: await attempt(() => Deno.env.toObject()),
        home: Deno.env.get("HOME") ?? null,
        run: await attempt(() => new Deno.Command("/usr/bin/id").output()),
        ownListener: await attempt(() => fetch("http://127.0.0.1:${apiPort}/")),
        ownListenerByName: ${JSON.stringify(loopbackName)} === "" ? "no such name here" : await refusedCause(() => fetch("http://${loopbackName}:${apiPort}/")),
        metadata: await attempt(() => fetch("http://169.254.169.254/latest/meta-data/", { signal: AbortSignal.timeout(1000) })),
        // 3 subrequests so far (2 without the name); the rest of the limit of 50, then the next is refused.
        subrequests: await (async () => {
          const outcomes = new Set();
          for (let i = 0; i < ${loopbackName === '' ? 48 : 47}; i++) outcomes.add(await attempt(() => fetch("http://127.0.0.1:${apiPort}/")));
          try { await fetch("http://127.0.0.1:${apiPort}/"); return [...outcomes, "allowed"]; } catch (e) { return [...outcomes, (e as Error).message]; }
        })(),
      }));`;
    const s = await standalone('denied', code);
    const res = await edge.get(s.host, '/');
    const denied = {
      read: 'NotCapable',
      write: 'NotCapable',
      env: 'NotCapable',
      home: null,
      run: 'NotCapable',
      ownListener: 'NotCapable',
      ownListenerByName: loopbackName === '' ? 'no such name here' : 'NotCapable',
      metadata: 'NotCapable',
      subrequests: ['NotCapable', 'Too many subrequests: a script may make 50 per request.'],
    };
    expect(JSON.parse(res.text)).toEqual(denied);
    // The count is per request: the next one gets its 50 again.
    expect(JSON.parse((await edge.get(s.host, '/')).text)).toEqual(denied);
  });
});

describe('a middleware script', () => {
  it("adds a header before the origin and rewrites the origin's answer", async () => {
    origin.handle((req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'max-age=60' });
      res.end(`origin saw ${String(req.headers['x-from-script'])}`);
    });
    const code = `
      import * as BunnySDK from "@bunny.net/edgescript-sdk";
      BunnySDK.net.http.servePullZone({ url: "https://example.com/" })
        .onOriginRequest((ctx) => { ctx.request.headers.set("x-from-script", "yes"); return ctx.request; })
        .onOriginResponse(async (ctx) => {
          const text = await ctx.response.text();
          const headers = new Headers(ctx.response.headers);
          headers.set("x-rewritten", "1");
          return new Response(text.toUpperCase(), { status: ctx.response.status, headers });
        });`;
    const script = (await t.post('/compute/script', { Name: 'mw', Code: code, ScriptType: 2 })).body;
    await t.post(`/compute/script/${script.Id}/publish`, {});
    const zone = await createPullZone(t, 'mw-zone', origin.url, { MiddlewareScriptId: script.Id });
    const res = await edge.get(zone.host, '/page');
    expect(res.status).toBe(200);
    expect(res.text).toBe('ORIGIN SAW YES');
    expect(res.headers['x-rewritten']).toBe('1');
    // Kept in the cache as rewritten: a hit runs no script.
    const hit = await edge.get(zone.host, '/page');
    expect(hit.text).toBe('ORIGIN SAW YES');
    expect(hit.headers['cdn-cache']).toBe('HIT');

    // The RunEdgeScript rule: the same script for the paths its trigger matches, on a zone with none of its own.
    const ruled = await createPullZone(t, 'mw-rule-zone', origin.url);
    const rule = {
      ActionType: 21,
      ActionParameter1: String(script.Id),
      ActionParameter2: '',
      TriggerMatchingType: 0,
      Enabled: true,
      Description: 'run the middleware',
      Triggers: [{ Type: 0, PatternMatches: ['*/scripted/*'], PatternMatchingType: 0, Parameter1: '' }],
    };
    expect((await t.post(`/pullzone/${ruled.Id}/edgerules/addOrUpdate`, rule)).status).toBe(201);
    expect((await edge.get(ruled.host, '/scripted/a')).text).toBe('ORIGIN SAW YES');
    expect((await edge.get(ruled.host, '/plain/a')).text).toBe('origin saw undefined');
  });
});
