// edgeplane's edge script runner: runs in Deno, one process per published script release, before
// the script's own module (main.js imports this file first, then the script, then calls start()). It plays the part the platform's
// runtime plays for the scripting SDK: the SDK, seeing the global below, hands its handler
// (`serve`) or its middleware hooks (`servePullZone`) to it instead of listening itself. Once the
// script's module has run, it serves edgeplane's edge on a Unix socket (the only file it may
// write), one HTTP exchange per request or hook; `x-edgeplane-script` carries what is not the
// message itself (JSON: the hook, the client's URL and method, the origin request's headers).
import { AsyncLocalStorage } from 'node:async_hooks';

const META = 'x-edgeplane-script';
const socketPath = Deno.args[0];
/** The platform's limits page: a script may make 50 subrequests (fetch calls) per request. */
const SUBREQUESTS = Number(Deno.args[1] ?? 50);
/** The request a fetch is made for: its subrequests are counted there; a DNS query's record variables are read there. */
const requestScope = new AsyncLocalStorage();
/**
 * With `EDGEPLANE_EDGE_SCRIPT_NETWORK=namespace` the process has no network but its loopback:
 * fetch and Deno.connect go through edgeplane's egress (its Unix socket, the third argument,
 * egress.ts), which judges every destination and says why it refused one.
 */
const egressPath = Deno.args[2];
const platformFetch = egressPath ? egressFetch(globalThis.fetch, egressPath) : globalThis.fetch;
if (egressPath) Deno.connect = egressConnect(Deno.connect, egressPath);
globalThis.fetch = function fetch(input, init) {
  const scope = requestScope.getStore();
  if (scope && ++scope.subrequests > SUBREQUESTS) {
    return Promise.reject(new TypeError(`Too many subrequests: a script may make ${SUBREQUESTS} per request.`));
  }
  return platformFetch(input, init);
};

function egressFetch(fetch, path) {
  const client = Deno.createHttpClient({ proxy: { transport: 'unix', path } });
  return async (input, init) => {
    const response = await fetch(input, { ...init, client: init?.client ?? client });
    const refused = response.headers.get('x-edgeplane-refused');
    const failed = response.headers.get('x-edgeplane-egress-error');
    if (refused === null && failed === null) return response;
    await response.body?.cancel();
    if (refused !== null) throw new Deno.errors.NotCapable(`Requires net access to ${refused}`);
    throw new TypeError(`fetch failed: ${failed}`);
  };
}

/** Deno.connect over TCP as a tunnel through the egress (`CONNECT host:port`); TLS sockets (connectTls, startTls) have no way out. */
function egressConnect(connect, path) {
  return async (options) => {
    if (options?.transport !== undefined && options.transport !== 'tcp') return connect(options);
    const host = options.hostname ?? '127.0.0.1';
    const target = `${host.includes(':') ? `[${host}]` : host}:${options.port}`;
    const conn = await connect({ transport: 'unix', path });
    await conn.write(new TextEncoder().encode(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`));
    // The answer's head, read a byte at a time: what follows it is the tunnel's, left unread.
    const head = [];
    const byte = new Uint8Array(1);
    while (!(head.length >= 4 && head.slice(-4).join() === '13,10,13,10')) {
      if ((await conn.read(byte)) === null) break;
      head.push(byte[0]);
    }
    const text = new TextDecoder().decode(new Uint8Array(head));
    if (/^HTTP\/1\.1 200 /.test(text)) return conn;
    conn.close();
    const said = (name) => new RegExp(`^${name}: (.*)$`, 'im').exec(text)?.[1] ?? text.split('\r\n')[0];
    if (/^HTTP\/1\.1 403 /.test(text)) throw new Deno.errors.NotCapable(`Requires net access to ${said('x-edgeplane-refused')}`);
    throw new Deno.errors.ConnectionRefused(said('x-edgeplane-egress-error'));
  };
}
// A Script record's variables (its EnviromentalVariables): environment variables of the query they
// came with, over the script's own of the same name. node:process's `process.env` reads through
// Deno.env.get, so both see them; outside a query (the module's top level) they do not exist.
// A name the script has no variable of is unset (undefined), as on the platform, rather than the
// permission error Deno raises for a name outside --allow-env (which lists the script's names).
const processEnv = { get: Deno.env.get.bind(Deno.env), has: Deno.env.has.bind(Deno.env) };
const unsetWhenDenied = (read, name, unset) => {
  try {
    return read(name);
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied) return unset;
    throw error;
  }
};
const recordVariable = (name) => {
  const env = requestScope.getStore()?.env;
  return env && Object.hasOwn(env, name) ? env[name] : undefined;
};
Deno.env.get = (name) => recordVariable(name) ?? unsetWhenDenied(processEnv.get, name, undefined);
Deno.env.has = (name) => recordVariable(name) !== undefined || unsetWhenDenied(processEnv.has, name, false);
let handler;
const middlewares = { onOriginRequest: [], onOriginResponse: [] };

// The global the scripting SDK looks for (byte for byte its name: a compatibility name).
globalThis.Bunny = {
  v1: {
    serve(fn) {
      handler = fn;
    },
    registerMiddlewares(hooks) {
      middlewares.onOriginRequest = hooks.onOriginRequest ?? [];
      middlewares.onOriginResponse = hooks.onOriginResponse ?? [];
    },
  },
};

// A DNS script's answers (Scriptable DNS): `handleQuery` returns one of these, or an array of them.
// Globals, as the platform's DNS runtime defines them (their names and fields are a compatibility surface).
class DnsAnswer {
  constructor(type, value, ttl) {
    this.type = type;
    this.value = String(value);
    this.ttl = ttl === undefined ? 30 : Number(ttl);
  }
}
/** A record class named `name` (as the platform's): its `type`, and the value also under its own field. */
const recordClass = (name, type, field) =>
  ({
    [name]: class extends DnsAnswer {
      constructor(value, ttl) {
        super(type, value, ttl);
        this[field] = String(value);
      }
    },
  })[name];
globalThis.ARecord = recordClass('ARecord', 'A', 'ip');
globalThis.AaaaRecord = recordClass('AaaaRecord', 'AAAA', 'ip');
globalThis.CnameRecord = recordClass('CnameRecord', 'CNAME', 'hostname');
globalThis.TxtRecord = recordClass('TxtRecord', 'TXT', 'text');
/** The edge's addresses (the pull zone is served by this edge): the DNS side answers them as A or AAAA. */
globalThis.PullZoneRecord = recordClass('PullZoneRecord', 'PULLZONE', 'pullzone');
let dnsHandler;

// Deno's own (node:process would load Node's compatibility layer at start: ~6 ms of every cold start).
const cpuMs = () => {
  const used = Deno.cpuUsage();
  return (used.user + used.system) / 1000;
};

function requestOf(meta, request, headers) {
  const init = { method: meta.method, headers };
  if (meta.method !== 'GET' && meta.method !== 'HEAD' && request.body) {
    init.body = request.body;
    init.duplex = 'half';
  }
  return new Request(meta.url, init);
}

/** What the client's request looked like, without the runner's own header. */
function clientHeaders(request) {
  const headers = new Headers(request.headers);
  headers.delete(META);
  return headers;
}

async function standalone(meta, request) {
  if (!handler) return new Response('The script registered no handler (serve).', { status: 502 });
  return await handler(requestOf(meta, request, clientHeaders(request)));
}

async function originRequest(meta, request) {
  let current = requestOf(meta, request, clientHeaders(request));
  for (const hook of middlewares.onOriginRequest) {
    const out = await hook({ request: current });
    if (out instanceof Response) {
      const headers = new Headers(out.headers);
      headers.set(META, JSON.stringify({ kind: 'response' }));
      return new Response(out.body, { status: out.status, statusText: out.statusText, headers });
    }
    if (out instanceof Request) current = out;
  }
  const next = { kind: 'request', url: current.url, method: current.method, headers: [...current.headers] };
  return new Response(null, { status: 200, headers: { [META]: JSON.stringify(next) } });
}

async function originResponse(meta, request) {
  const clientRequest = new Request(meta.url, { method: meta.method, headers: meta.requestHeaders });
  let response = new Response(meta.status === 204 || meta.status === 304 ? null : request.body, { status: meta.status, headers: clientHeaders(request) });
  for (const hook of middlewares.onOriginResponse) {
    const out = await hook({ request: clientRequest, response });
    if (out instanceof Response) response = out;
  }
  return response;
}

/** A DNS query: the script's `handleQuery` answers with records, sent back as JSON ({ answers: [{ type, value, ttl }] }). */
async function dns(meta) {
  if (!dnsHandler) return new Response('The DNS script exports no handleQuery function.', { status: 502 });
  const result = await dnsHandler({ request: meta.query });
  const list = result === undefined || result === null ? [] : Array.isArray(result) ? result : [result];
  const answers = [];
  for (const item of list) {
    if (!(item instanceof DnsAnswer)) return new Response('The DNS script answered something that is not a DNS record object.', { status: 502 });
    answers.push({ type: item.type, value: item.value, ttl: Number.isFinite(item.ttl) ? Math.max(0, Math.floor(item.ttl)) : 30 });
  }
  return Response.json({ answers });
}

const HOOKS = { standalone, 'origin-request': originRequest, 'origin-response': originResponse, dns };

async function serve(request) {
  const started = cpuMs();
  let response;
  try {
    const meta = JSON.parse(request.headers.get(META) ?? '{}');
    const run = HOOKS[meta.hook] ?? standalone;
    response = await requestScope.run({ subrequests: 0, env: meta.env ?? null }, () => run(meta, request));
    if (!(response instanceof Response)) response = new Response('The script answered no Response.', { status: 502 });
  } catch (error) {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    response = new Response('The script threw an error.', { status: 500, headers: { 'x-edgeplane-script-error': '1' } });
  }
  const used = (cpuMs() - started).toFixed(3);
  try {
    // In place when the headers may change: a Response made again from its body loses Deno's fast path for a fixed body.
    response.headers.set('x-edgeplane-cpu-ms', used);
    return response;
  } catch {
    const headers = new Headers(response.headers);
    headers.set('x-edgeplane-cpu-ms', used);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
}

/** Called by main.js once the script's module has run, with its exports: serves whatever it registered (a DNS script exports handleQuery). */
export function start(exports) {
  const query = exports?.default ?? exports?.handleQuery;
  if (typeof query === 'function') dnsHandler = query;
  Deno.serve({ path: socketPath, onListen: () => console.log('edgeplane-script-ready') }, serve);
}
