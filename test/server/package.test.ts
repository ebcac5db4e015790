/**
 * What `npm pack` ships is what `npx edgeplane` runs: the bundled CLI and server with the CLI's
 * shebang, the migrations of both stores, and nothing of the tests. The bundle is what users run,
 * so it is started here and driven over HTTP: the parts a bundler can break (the docs page's
 * static files, the logger, validation and serialization) are exercised. (Installing the tarball
 * itself needs the registry and a native build, so it is checked by hand; see the closing notes.)
 */
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUNDLED_SERVER, serverEnvironment, startServer } from '../helpers/server-process.js';
import { within } from '../helpers/within.js';
import { ensureDebianPackage } from '../helpers/debian-package.js';
import { S3RVER_CREDENTIALS, startTestS3Server } from '../files/s3-test-server.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));

describe('the package', () => {
  it("ships the compiled CLI and both stores' migrations, and no tests", async () => {
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root });
    const files = (JSON.parse(stdout) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
    for (const needed of [
      'dist/bundle/cli.js',
      'dist/bundle/cli.cjs',
      'dist/bundle/server.js',
      'dist/bundle/server.cjs',
      'dist/bundle/package.json',
      'dist/bundle/vendor-s3.cjs',
      'dist/bundle/vendor-x509.cjs',
      'dist/bundle/console/index.html',
      'dist/bundle/console/console.js',
      'dist/bundle/console/console.css',
      'dist/bundle/console/download-worker.js',
      'migrations/sqlite/0001-initial.sql',
      'migrations/postgres/0001-initial.sql',
      'README.md',
      'package.json',
    ]) {
      expect(files, needed).toContain(needed);
    }
    expect(files.filter((f) => f.startsWith('test/') || f.startsWith('src/'))).toEqual([]);
    const pkg = JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as { bin: Record<string, string> };
    expect(pkg.bin['edgeplane']).toBe('dist/bundle/cli.js');
  }, 60_000);

  it('runs as a binary from the build', async () => {
    const cli = `${root}/dist/bundle/cli.js`;
    expect(existsSync(cli), 'npm install runs the build (prepare)').toBe(true);
    expect(readFileSync(cli, 'utf8').startsWith('#!/usr/bin/env node')).toBe(true);
    // Through the code cache, as the server: the first command writes it, the next ones load from it.
    const cacheDir = mkdtempSync(join(tmpdir(), 'edgeplane-cli-cache-'));
    try {
      const env = { ...process.env, NODE_COMPILE_CACHE: cacheDir };
      const { stdout } = await run(process.execPath, [cli, '--help'], { env });
      expect(stdout).toMatch(/^edgeplane \d+\.\d+\.\d+/);
      const written = readdirSync(cacheDir).filter((name) => /^edgeplane-[0-9a-f]{32}-[0-9a-f]{12}\.bin$/.test(name));
      expect(written).toHaveLength(1);
      const inode = statSync(join(cacheDir, written[0]!)).ino;
      expect((await run(process.execPath, [cli, '--help'], { env })).stdout).toBe(stdout);
      // Used, not written again (a cache missing or rejected is replaced by a new file).
      expect(readdirSync(cacheDir).filter((name) => name.endsWith('.bin'))).toEqual(written);
      expect(statSync(join(cacheDir, written[0]!)).ino).toBe(inode);
    } finally {
      rmSync(cacheDir, { recursive: true, force: true });
    }
  }, 60_000);

  it('serves from the bundle: API, validation errors, docs page and its assets, the web console, health, JSON logs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'edgeplane-bundle-'));
    const key = 'bundle-bootstrap-key-0123456789';
    const server = await startServer({ DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`, EDGEPLANE_BOOTSTRAP_KEY: key }, BUNDLED_SERVER);
    try {
      const call = (path: string, init: RequestInit = {}) =>
        fetch(server.base + path, { ...init, headers: { AccessKey: key, 'content-type': 'application/json', ...init.headers } });
      const health = await (await fetch(`${server.base}/_edgeplane/health`)).json();
      expect(health).toMatchObject({ status: 'ok' });

      const created = await call('/pullzone', { method: 'POST', body: JSON.stringify({ Name: 'bundled', OriginUrl: 'https://origin.example.com' }) });
      expect(created.status).toBe(201);
      const zone = (await created.json()) as { Id: number; Name: string };
      const read = await call(`/pullzone/${zone.Id}`);
      expect(read.status).toBe(200);
      expect(await read.json()).toMatchObject({ Id: zone.Id, Name: 'bundled' });

      // A certificate: the X.509 library is a file of its own beside the bundle, loaded on first use.
      expect((await call(`/pullzone/${zone.Id}/addHostname`, { method: 'POST', body: JSON.stringify({ Hostname: 'cdn.bundled.example' }) })).status).toBe(204);
      expect((await call('/pullzone/loadFreeCertificate?hostname=cdn.bundled.example')).status).toBe(200);
      const withCertificate = (await (await call(`/pullzone/${zone.Id}`)).json()) as { Hostnames: { Value: string; HasCertificate: boolean }[] };
      expect(withCertificate.Hostnames.find((h) => h.Value === 'cdn.bundled.example')?.HasCertificate).toBe(true);

      // The router's prefix test is rewritten in the bundle (scripts/bundle.mjs): near misses of static paths are no routes.
      for (const near of ['/pullzon', '/pullzonex', '/storagezon', '/storagezones', '/dnszon']) {
        expect((await call(near)).status, near).toBe(404);
      }
      expect((await call('/pullzone?perPage=5')).status).toBe(200);

      const invalid = await call('/pullzone', { method: 'POST', body: JSON.stringify({ Name: 'x', OriginUrl: 42 }) });
      expect(invalid.status).toBe(400);
      expect(await invalid.json()).toMatchObject({ ErrorKey: 'validation_error', Field: 'OriginUrl' });

      const docs = await fetch(`${server.base}/docs/`);
      expect(docs.status).toBe(200);
      const page = await docs.text();
      const asset = /src="\.?\/?([^"]*swagger-ui-bundle\.js)"/.exec(page)?.[1];
      expect(asset, page.slice(0, 500)).toBeDefined();
      expect((await fetch(`${server.base}/docs/${asset!.replace(/^docs\//, '')}`)).status).toBe(200);
      expect(((await (await fetch(`${server.base}/openapi.json`)).json()) as { openapi: string }).openapi).toBe('3.1.0');
      // The web console, found beside the bundle: its page at / and the script it names.
      const consolePage = await fetch(`${server.base}/`);
      expect([consolePage.status, consolePage.headers.get('content-security-policy')]).toEqual([200, expect.stringContaining("script-src 'self'")]);
      const script = /src="(\/console\/[^"]+\.js)"/.exec(await consolePage.text())?.[1];
      expect((await fetch(`${server.base}${script}`)).headers.get('content-type')).toBe('text/javascript; charset=utf-8');

      // Log lines are written in blocks, at the latest a second after they were logged.
      const lines = () =>
        server
          .stdout()
          .split('\n')
          .filter((l) => l.startsWith('{'));
      await within(3000, async () => lines().some((l) => l.includes('"reqId"')));
      expect(lines().length).toBeGreaterThan(0);
      expect(JSON.parse(lines().at(-1)!)).toHaveProperty('reqId');
    } finally {
      expect(await server.stop()).toBe(0);
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('keeps its compiled code for the next start: written once every plane listens, then used as it is', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'edgeplane-bundle-cache-'));
    const env = {
      DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`,
      EDGEPLANE_BOOTSTRAP_KEY: 'bundle-bootstrap-key-0123456789',
      NODE_COMPILE_CACHE: join(dir, 'cache'),
    };
    const cacheFile = () => readdirSync(join(dir, 'cache')).find((f) => /^edgeplane-.*\.bin$/.test(f));
    try {
      let server = await startServer(env, BUNDLED_SERVER);
      await within(10_000, async () => cacheFile() !== undefined);
      expect(await server.stop()).toBe(0);
      const written = statSync(join(dir, 'cache', cacheFile()!));

      server = await startServer(env, BUNDLED_SERVER);
      try {
        expect(((await (await fetch(`${server.base}/_edgeplane/health`)).json()) as { status: string }).status).toBe('ok');
        // A cache V8 refused would be written again (a new file renamed into place).
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(statSync(join(dir, 'cache', cacheFile()!)).ino).toBe(written.ino);
      } finally {
        expect(await server.stop()).toBe(0);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('keeps files in S3 from the bundle (the AWS SDK is a file of its own beside it, loaded on first use)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'edgeplane-bundle-s3-'));
    const s3 = await startTestS3Server();
    const key = 'bundle-bootstrap-key-0123456789';
    const server = await startServer(
      {
        DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`,
        EDGEPLANE_BOOTSTRAP_KEY: key,
        EDGEPLANE_FILES_URL: `s3://${s3.bucket}?endpoint=${encodeURIComponent(s3.endpoint)}&region=us-east-1&forcePathStyle=true`,
        ...S3RVER_CREDENTIALS,
      },
      BUNDLED_SERVER,
    );
    try {
      const created = await fetch(`${server.base}/storagezone`, {
        method: 'POST',
        headers: { AccessKey: key, 'content-type': 'application/json' },
        body: JSON.stringify({ Name: 'bundled-files', Region: 'DE' }),
      });
      expect(created.status).toBe(201);
      const zone = (await created.json()) as { Name: string; Password: string };
      const url = `${server.planes['storage']}/${zone.Name}/hello.txt`;
      expect((await fetch(url, { method: 'PUT', headers: { AccessKey: zone.Password }, body: 'kept in S3' })).status).toBe(201);
      const read = await fetch(url, { headers: { AccessKey: zone.Password } });
      expect(read.status).toBe(200);
      expect(await read.text()).toBe('kept in S3');
      // mime-db, loaded on first use from node_modules.
      expect(read.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      const client = new S3Client({
        endpoint: s3.endpoint,
        region: 'us-east-1',
        forcePathStyle: true,
        credentials: { accessKeyId: S3RVER_CREDENTIALS.AWS_ACCESS_KEY_ID, secretAccessKey: S3RVER_CREDENTIALS.AWS_SECRET_ACCESS_KEY },
      });
      const listed = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket }));
      client.destroy();
      expect(listed.KeyCount).toBeGreaterThan(0);
    } finally {
      expect(await server.stop()).toBe(0);
      await s3.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it("logs readable text to a terminal from the bundle (pino's pretty transport, in a worker thread)", async () => {
    // util-linux's `script` runs the server with a terminal for its standard output.
    await ensureDebianPackage('script', 'bsdutils');
    const dir = mkdtempSync(join(tmpdir(), 'edgeplane-bundle-tty-'));
    try {
      const command = `${process.execPath} ${join(root, 'dist/bundle/server.js')}`;
      const env = serverEnvironment({ DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}` });
      // Stopped once it has logged its first lines (or after 20 s, failing below).
      const output = await new Promise<string>((resolve) => {
        const child = spawn('script', ['-qec', command, '/dev/null'], { env, cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
        let text = '';
        const done = () => {
          clearTimeout(timer);
          child.kill('SIGTERM');
          resolve(text);
        };
        const timer = setTimeout(done, 20_000);
        const take = (chunk: Buffer) => {
          text += chunk.toString();
          if (/Server listening at/.test(text) && text.includes('edgeplane: listening on')) done();
        };
        child.stdout.on('data', take);
        child.stderr.on('data', take);
      });
      expect(output).toContain('edgeplane: listening on');
      // pino-pretty's line, not JSON: the time in brackets, the level as a word.
      expect(output).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] .*INFO.*: .*Server listening at/m);
      expect(output).not.toContain('Cannot find module');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
