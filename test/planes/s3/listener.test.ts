/**
 * The S3 plane in the server process: its start-up line with the bound port, its health entry, a
 * port in use named by its variable, `off`, and an S3 client served by the running process.
 */
import { ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startServer } from '../../helpers/server-process.js';

const KEY = 'bootstrap-key-s3-0123456789';
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'edgeplane-s3-listener-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('the S3 plane listener', () => {
  it('prints its line, reports ok in health, and serves S3 clients', async () => {
    const server = await startServer({ DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`, EDGEPLANE_BOOTSTRAP_KEY: KEY });
    try {
      const url = server.planes['s3'];
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(server.stdout()).toContain(`edgeplane: s3 listening on ${url}`);
      const health = await (await fetch(`${server.base}/_edgeplane/health`)).json();
      expect(health.planes.s3).toBe('ok');
      const created = await fetch(`${server.base}/storagezone`, {
        method: 'POST',
        headers: { AccessKey: KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ Name: 'listener-zone', Region: 'NY', StorageZoneType: 1 }),
      });
      const zone = (await created.json()) as { Name: string; Password: string; S3Hostname: string };
      expect(zone.S3Hostname).toBe('s3.ny.storage.edgeplane.test');
      const s3 = new S3Client({ endpoint: url, forcePathStyle: true, region: 'ny', credentials: { accessKeyId: zone.Name, secretAccessKey: zone.Password } });
      await s3.send(new PutObjectCommand({ Bucket: zone.Name, Key: 'hello.txt', Body: 'hi' }));
      expect((await s3.send(new ListObjectsV2Command({ Bucket: zone.Name }))).Contents?.map((c) => c.Key)).toEqual(['hello.txt']);
      s3.destroy();
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it('is off with EDGEPLANE_S3_PORT=off', async () => {
    const server = await startServer({ DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`, EDGEPLANE_S3_PORT: 'off' });
    try {
      expect(server.planes['s3']).toBeUndefined();
      const health = await (await fetch(`${server.base}/_edgeplane/health`)).json();
      expect(health.planes.s3).toBe('off');
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it('names EDGEPLANE_S3_PORT when its port is in use', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const failure = await startServer({ DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`, EDGEPLANE_S3_PORT: String(port) }).catch(
        (e: { code: number; stderr: string }) => e,
      );
      expect(failure).toMatchObject({ code: 1 });
      expect((failure as { stderr: string }).stderr).toContain(`edgeplane: EDGEPLANE_S3_PORT: port ${port} on 127.0.0.1 is already in use`);
    } finally {
      taken.close();
    }
  });
});
