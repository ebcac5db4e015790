import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApiOver } from '../helpers/app.js';
import { readConfig } from '../../src/config.js';
import { loggerOptions } from '../../src/logging.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { startServer } from '../helpers/server-process.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'edgeplane-logs-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const BOOTSTRAP_KEY = 'bootstrap-key-for-logs-0123456789';
const ADMIN_TOKEN = 'admin-token-for-logs-0123456789';
const CREDENTIAL_FIELDS = new Set([
  'Key',
  'ApiKey',
  'ReadOnlyApiKey',
  'ApiAccessKey',
  'Password',
  'ReadOnlyPassword',
  'ZoneSecurityKey',
  'RequestSigningKey',
  'RequestSigningSecret',
  'LogForwardingToken',
  'CertificateKey',
]);

/** Every non-empty credential value in a response body, at any depth. */
function credentialsIn(value: unknown, found: Set<string>): void {
  if (Array.isArray(value)) for (const item of value) credentialsIn(item, found);
  else if (value !== null && typeof value === 'object') {
    for (const [name, field] of Object.entries(value)) {
      if (CREDENTIAL_FIELDS.has(name) && typeof field === 'string' && field.length > 0) found.add(field);
      else credentialsIn(field, found);
    }
  }
}

describe('logs of the running server', () => {
  it('are JSON lines carrying request ids and never a credential, through a full flow at debug level', async () => {
    const server = await startServer({
      DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`,
      LOG_LEVEL: 'debug',
      EDGEPLANE_BOOTSTRAP_KEY: BOOTSTRAP_KEY,
      EDGEPLANE_ADMIN_TOKEN: ADMIN_TOKEN,
      EDGEPLANE_JOURNAL_SIZE: '50',
    });
    const credentials = new Set<string>();
    const requestIds: string[] = [];
    const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = { AccessKey: BOOTSTRAP_KEY }) => {
      const res = await fetch(server.base + path, {
        method,
        headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      requestIds.push(res.headers.get('x-request-id')!);
      const text = await res.text();
      const parsed: unknown = res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text;
      credentialsIn(parsed, credentials);
      return { status: res.status, body: parsed as Record<string, any> };
    };

    let exitCode: number | null;
    try {
      expect((await call('POST', '/apikey', { Roles: ['FullAccess'] })).status).toBe(201);
      expect((await call('POST', '/apikey', { Roles: ['ReadOnly'] })).status).toBe(201);
      expect((await call('GET', '/apikey')).status).toBe(200);
      const storage = await call('POST', '/storagezone', { Name: 'logs-storage', Region: 'DE', ReplicationRegions: ['NY'] });
      expect(storage.status).toBe(201);
      expect((await call('GET', `/storagezone/${storage.body.Id}`)).status).toBe(200);
      const sent = {
        RequestSigningKey: 'client-signing-key-0001',
        RequestSigningSecret: 'client-signing-secret-0001',
        LogForwardingToken: 'client-forwarding-token-0001',
      };
      for (const value of Object.values(sent)) credentials.add(value);
      const zone = await call('POST', '/pullzone', { Name: 'logs-zone', OriginUrl: 'https://origin.example', ...sent });
      expect(zone.status).toBe(201);
      expect((await call('GET', `/pullzone/${zone.body.Id}?includeCertificate=true`)).status).toBe(200);
      const library = await call('POST', '/videolibrary', { Name: 'logs-library' });
      expect(library.status).toBe(201);
      expect((await call('GET', `/videolibrary/${library.body.Id}`)).status).toBe(200);
      const operator = { authorization: `Bearer ${ADMIN_TOKEN}` };
      expect((await call('POST', '/_edgeplane/accounts', { Name: 'second' }, operator)).status).toBe(201);
      expect((await call('GET', '/_edgeplane/journal', undefined, operator)).status).toBe(200);
      expect((await call('GET', '/_edgeplane/metrics', undefined, operator)).status).toBe(200);
      expect((await call('GET', '/apikey', undefined, { AccessKey: 'wrong-key-for-logs-0123456789' })).status).toBe(401);
      expect((await call('POST', '/storagezone', { Name: '', Region: 'XX', Password: 'sent-in-a-bad-body-0001' })).status).toBe(400);
      credentials.add('sent-in-a-bad-body-0001');
      const traced = await call('GET', '/apikey', undefined, { AccessKey: BOOTSTRAP_KEY, 'X-Request-Id': 'client-trace.logs-1' });
      expect(traced.status).toBe(200);
    } finally {
      exitCode = await server.stop();
    }
    expect(exitCode).toBe(0);

    // Keys, storage passwords, zone security keys, library keys, and what the client sent.
    expect(credentials.size).toBeGreaterThanOrEqual(12);
    const output = server.stdout() + server.stderr();
    for (const secret of [...credentials, BOOTSTRAP_KEY, ADMIN_TOKEN, 'wrong-key-for-logs-0123456789']) {
      expect(output, `a credential is in the logs: ${secret}`).not.toContain(secret);
    }

    const lines = server
      .stdout()
      .split('\n')
      .filter((l) => l.length > 0 && !l.startsWith('edgeplane: '));
    const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(entries.filter((e) => e['msg'] === 'request completed').length).toBe(requestIds.length);
    for (const entry of entries.filter((e) => 'req' in e || 'res' in e)) expect(typeof entry['reqId']).toBe('string');
    const logged = new Set(entries.map((e) => e['reqId']));
    expect(requestIds).toContain('client-trace.logs-1');
    for (const id of requestIds) expect(logged.has(id), `request ${id} is not in the logs`).toBe(true);
    for (const entry of entries) expect(entry).not.toHaveProperty('body');
  }, 60_000);
});

describe('logger options', () => {
  it('log an unexpected error with its message, code and cause, but none of its other properties', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const config = readConfig({}, { databaseUrl: `sqlite:${join(dir, 'db.sqlite')}`, logLevel: 'info' });
    const store = await SqliteStore.open(join(dir, 'db.sqlite'));
    const app = await buildApiOver({ config, store, masterKey: randomBytes(32), logger: { ...loggerOptions(config, false), stream } });
    app.get('/explode', async () => {
      const cause = Object.assign(new Error('inner failure'), { ApiKey: 'cause-secret-0001' });
      throw Object.assign(new Error('outer failure', { cause }), {
        code: 'E_TEST',
        Password: 'property-secret-0001',
        request: { headers: { AccessKey: 'header-secret-0001' }, body: { ZoneSecurityKey: 'body-secret-0001' } },
      });
    });
    try {
      const res = await app.inject({ method: 'GET', url: '/explode' });
      expect(res.statusCode).toBe(500);
      expect(res.body).not.toContain('outer failure');
    } finally {
      await app.close();
      await store.close();
    }
    const record = lines.map((l) => JSON.parse(l) as Record<string, any>).find((e) => e['msg'] === 'unhandled error');
    expect(record?.['err']).toMatchObject({ type: 'Error', message: 'outer failure', code: 'E_TEST', cause: { message: 'inner failure' } });
    expect(typeof record?.['reqId']).toBe('string');
    const output = lines.join('');
    for (const secret of ['cause-secret-0001', 'property-secret-0001', 'header-secret-0001', 'body-secret-0001']) expect(output).not.toContain(secret);
  });

  it('log a request as its method, url, host and peer, never its headers or body, and never a body', () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logger = pino(loggerOptions(readConfig({}, { logLevel: 'info' }), false), stream);
    const headers = { host: 'api.test', accesskey: 'header-secret-0002', authorization: 'Bearer auth-secret-0002', cookie: 'c=cookie-secret-0002' };
    const req = {
      method: 'GET',
      url: '/pullzone/1',
      headers,
      host: 'api.test',
      ip: '127.0.0.1',
      socket: { remotePort: 4000 },
      body: { Password: 'body-secret-0002' },
    };
    logger.info({ req, body: { ApiKey: 'body-secret-0003' } }, 'a careless line');
    const record = JSON.parse(lines.join('')) as Record<string, unknown>;
    expect(record['req']).toEqual({ method: 'GET', url: '/pullzone/1', host: 'api.test', remoteAddress: '127.0.0.1', remotePort: 4000 });
    expect(record['body']).toBe('[redacted]');
    for (const secret of ['header-secret-0002', 'auth-secret-0002', 'cookie-secret-0002', 'body-secret-0002', 'body-secret-0003'])
      expect(lines.join('')).not.toContain(secret);
  });

  it('print readable text on a terminal and JSON otherwise', () => {
    const config = readConfig({}, {});
    expect(loggerOptions(config, true)).toMatchObject({ transport: { target: 'pino-pretty' } });
    expect(loggerOptions(config, false)).not.toHaveProperty('transport');
  });
});
