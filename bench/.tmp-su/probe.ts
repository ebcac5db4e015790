import { Agent, request } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { startEdgeplane } from '../server.js';
const dir = mkdtempSync(join(tmpdir(), 'su-probe-'));
const key = 'probe-key-abcdefabcdefabcdef';
const server = await startEdgeplane({ dbFile: join(dir, 'p.db'), bootstrapKey: key, settings: process.env.LL ? { LOG_LEVEL: process.env.LL } : {} });
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
const call = (method: string, path: string, body?: unknown) => new Promise<{ status: number; body: string; ms: number }>((resolve, reject) => {
  const t = performance.now();
  const r = request(server.url + path, { method, agent, headers: { AccessKey: key, ...(body ? { 'Content-Type': 'application/json' } : {}) } }, (res) => { let b = ''; res.on('data', (c) => (b += c)); res.on('end', () => resolve({ status: res.statusCode!, body: b, ms: performance.now() - t })); });
  r.on('error', reject); r.end(body ? JSON.stringify(body) : undefined);
});
const med = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1]!.toFixed(2);
const pz = JSON.parse((await call('POST', '/pullzone', { Name: 'probe-pz', OriginUrl: 'https://o.example.com' })).body);
const kinds: Record<string, () => Promise<{ status: number; ms: number }>> = {
  'GET /pullzone/id': () => call('GET', `/pullzone/${pz.Id}`),
  'POST /pullzone/id': () => call('POST', `/pullzone/${pz.Id}`, { MonthlyBandwidthLimit: Math.floor(Math.random() * 1e6) }),
  'GET /pullzone?page': () => call('GET', '/pullzone?page=1&perPage=10'),
  'GET /storagezone?page': () => call('GET', '/storagezone?page=1&perPage=10'),
  'GET /_edgeplane/health': () => call('GET', '/_edgeplane/health'),
  'POST /apikey+DELETE': async () => { const k = await call('POST', '/apikey', { Roles: ['ReadOnly'] }); const d = await call('DELETE', `/apikey/${JSON.parse(k.body).Id}`); return { status: d.status, ms: k.ms + d.ms }; },
};
for (const [name, fn] of Object.entries(kinds)) {
  const t: number[] = [];
  for (let i = 0; i < 40; i++) { const r = await fn(); if (r.status > 299) throw new Error(`${name} ${r.status}`); if (i >= 5) t.push(r.ms); }
  console.log(name.padEnd(24), 'p50', med(t));
}
await server.stop();
