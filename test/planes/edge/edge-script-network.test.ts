/**
 * Edge scripts with `EDGEPLANE_EDGE_SCRIPT_NETWORK=namespace`: each Deno process in a network
 * namespace of its own (`unshare --net`), reaching out only through edgeplane's egress (egress.ts).
 * Over real sockets: a fetch and a TCP socket reach an allowed origin through it; the process has
 * no network of its own; and, with private addresses denied, IPv6 ranges Deno's deny list cannot
 * express are refused, where the deny list alone lets the attempt out.
 */
import { lookup as dnsLookup } from 'node:dns';
import type { AddressInfo, LookupFunction } from 'node:net';
import { createServer as createHttpsServer } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CERTIFICATE_KEY_PEM, CERTIFICATE_PEM } from '../../http/pull-zones/fixtures.js';
import { createTestApp, type TestContext } from '../../helpers/app.js';
import { type EdgePlane, startEdgePlane, startOrigin, type TestOrigin } from '../../helpers/edge-plane.js';

let origin: TestOrigin;
beforeAll(async () => {
  origin = await startOrigin();
});
afterAll(async () => origin?.close());

/** Resolves `private.test` to fd12:3456::1; other names as the system does. */
const privateTestLookup: LookupFunction = (name, options, callback) => {
  if (name !== 'private.test') return (dnsLookup as LookupFunction)(name, options, callback);
  if (options.all) callback(null, [{ address: 'fd12:3456::1', family: 6 }]);
  else callback(null, 'fd12:3456::1', 6);
};

/** A test app and its edge with these settings; `run` publishes a standalone script and returns its JSON answer. */
function withScripts(settings: Parameters<typeof createTestApp>[0], options: Parameters<typeof createTestApp>[1] = {}) {
  const ctx = {} as { t: TestContext; edge: EdgePlane };
  let seq = 0;
  beforeAll(async () => {
    ctx.t = await createTestApp({ edgeScriptStartupMs: 10_000, ...settings }, options);
    ctx.edge = await startEdgePlane(ctx.t);
  });
  afterAll(async () => {
    await ctx.edge?.close();
    await ctx.t?.close();
  });
  const run = async (body: string): Promise<Record<string, unknown>> => {
    const name = `net${++seq}`;
    const code = `
      import * as SDK from "@bunny.net/edgescript-sdk";
      const attempt = async (f: () => Promise<unknown>) => { try { return { ok: await f() }; } catch (e) { return { error: (e as Error).name, message: (e as Error).message }; } };
      SDK.net.http.serve(async () => Response.json(${body}));`;
    const created = await ctx.t.post('/compute/script', { Name: name, Code: code, ScriptType: 1, CreateLinkedPullZone: true, LinkedPullZoneName: name });
    expect(created.status).toBe(201);
    expect((await ctx.t.post(`/compute/script/${created.body.Id}/publish`, {})).status).toBe(204);
    const answer = await ctx.edge.get(`${name}.${ctx.t.config.cdnDomain}`, '/');
    expect(answer.status, answer.text).toBe(200);
    return JSON.parse(answer.text) as Record<string, unknown>;
  };
  return { ctx, run };
}

/** A raw HTTP/1.0 exchange over Deno.connect, as a database driver's socket would be used. */
const overTcp = (port: number) => `(async () => {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: ${port} });
  await conn.write(new TextEncoder().encode("GET /tcp HTTP/1.0\\r\\nHost: origin\\r\\n\\r\\n"));
  let text = "";
  const buf = new Uint8Array(4096);
  for (let n; (n = await conn.read(buf)) !== null; ) text += new TextDecoder().decode(buf.subarray(0, n));
  conn.close();
  return text.split("\\r\\n")[0];
})()`;

describe('a namespace of its own, private addresses allowed', () => {
  const { ctx, run } = withScripts({ edgeScriptNetwork: 'namespace' });

  it('reaches the origin by fetch and by a TCP socket through the egress, and nothing by a network of its own', async () => {
    const port = Number(new URL(origin.url).port);
    const answer = await run(`{
      fetch: await attempt(async () => (await fetch("${origin.url}/through-egress")).status),
      tcp: await attempt(() => ${overTcp(port)}),
      // A client of its own, not the egress's: the namespace has no way out.
      ownClient: await attempt(async () => (await fetch("${origin.url}/direct", { client: Deno.createHttpClient({}) })).status),
      ownListener: await attempt(async () => (await fetch("http://127.0.0.1:${ctx.edge.port}/")).status),
    }`);
    expect(answer).toMatchObject({
      fetch: { ok: 200 },
      tcp: { ok: expect.stringMatching(/^HTTP\/1\.[01] 200/) },
      ownClient: { error: 'TypeError' },
      ownListener: { error: 'NotCapable' },
    });
    expect(origin.requests.map((r) => r.url)).toEqual(expect.arrayContaining(['/through-egress', '/tcp']));
    expect(origin.requests.map((r) => r.url)).not.toContain('/direct');
  });
  it("makes an https fetch's TLS connection itself, checking the certificate: a self-signed origin fails, saying why", async () => {
    const server = createHttpsServer({ cert: CERTIFICATE_PEM, key: CERTIFICATE_KEY_PEM }, (_req, res) => res.end('secure'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      const answer = await run(`{ https: await attempt(async () => (await fetch("${url}")).status) }`);
      expect(answer).toEqual({ https: { error: 'TypeError', message: expect.stringMatching(/^fetch failed: .*(self[- ]signed|certificate)/i) } });
    } finally {
      server.close();
    }
  });
});

/** The three attempts at once (each may wait out its 1 s on a network that does not answer). */
const privateIpv6 = `await (async () => {
  const giveUp = () => new Promise((_, reject) => setTimeout(() => reject(new Error("no answer in 1 s")), 1000));
  const [ula, linkLocal, ulaTcp] = await Promise.all([
    attempt(async () => (await fetch("http://[fd12:3456::1]:8080/", { signal: AbortSignal.timeout(1000) })).status),
    attempt(async () => (await fetch("http://[fe80::1]:8080/", { signal: AbortSignal.timeout(1000) })).status),
    attempt(() => Promise.race([Deno.connect({ hostname: "fd12:3456::1", port: 5432 }).then((c) => c.close()), giveUp()])),
  ]);
  return { ula, linkLocal, ulaTcp };
})()`;

describe('a namespace of its own, private addresses denied', () => {
  // `private.test` resolves, for the edge and its egress, to a unique-local IPv6 address.
  const { run } = withScripts({ edgeScriptNetwork: 'namespace', originPrivateAddresses: 'deny' }, { originLookup: privateTestLookup });

  it('refuses IPv6 ranges by fetch and by TCP socket, saying why', async () => {
    const answer = await run(privateIpv6);
    expect(answer).toMatchObject({
      ula: { error: 'NotCapable', message: expect.stringMatching(/private address/) },
      linkLocal: { error: 'NotCapable', message: expect.stringMatching(/link-local/) },
      ulaTcp: { error: 'NotCapable', message: expect.stringMatching(/private address/) },
    });
  });

  it('refuses a name by the address the egress resolves it to (a name Deno cannot resolve in its namespace)', async () => {
    const answer = await run(`{
      byName: await attempt(async () => (await fetch("http://private.test:${origin.port}/by-name")).status),
      tcpByName: await attempt(() => Deno.connect({ hostname: "private.test", port: ${origin.port} }).then((c) => c.close())),
    }`);
    expect(answer).toEqual({
      byName: { error: 'NotCapable', message: expect.stringMatching(/private\.test resolves to fd12:3456::1, a loopback or private address/) },
      tcpByName: { error: 'NotCapable', message: expect.stringMatching(/private\.test resolves to fd12:3456::1/) },
    });
  });
});

describe("Deno's deny list alone, private addresses denied", () => {
  const { run } = withScripts({ originPrivateAddresses: 'deny' });

  it('lets the same attempts out (they fail on the network, not on a refusal)', async () => {
    const answer = await run(privateIpv6);
    for (const key of ['ula', 'linkLocal', 'ulaTcp']) expect((answer[key] as { error: string }).error, key).not.toBe('NotCapable');
  });
});
