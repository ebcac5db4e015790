/**
 * The S3 plane of a test app, listening on a free loopback port, S3 zones to use it with, and the
 * maintained AWS SDK v3 client pointed at it (path style, or virtual-host style through a lookup
 * that sends `<zone>.s3.<storage domain>` to the loopback address).
 */
import { S3Client } from '@aws-sdk/client-s3';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { afterEach, beforeEach } from 'vitest';
import { listenS3 } from '../../src/planes/s3/listen.js';
import { createTestApp, type TestContext } from './app.js';
import { createStorageZone, startStoragePlane, type StoragePlane, type Zone } from './storage-plane.js';

export interface S3Plane {
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function startS3Plane(t: TestContext): Promise<S3Plane> {
  const errors: unknown[] = [];
  const plane = await listenS3(t.app.services, '127.0.0.1', 0, { storageDomain: t.config.storageDomain, logError: (error) => errors.push(error) });
  return {
    url: plane.url,
    port: Number(new URL(plane.url).port),
    async close() {
      await plane.close();
      if (errors.length > 0) throw new Error(`the S3 plane logged errors: ${errors.map((e) => (e as Error).stack ?? String(e)).join('; ')}`);
    },
  };
}

export interface S3Zone extends Zone {
  S3Hostname: string;
  Region: string;
}

export async function createS3Zone(t: TestContext, name: string, extra: Record<string, unknown> = {}): Promise<S3Zone> {
  return (await createStorageZone(t, name, { StorageZoneType: 1, ...extra })) as S3Zone;
}

export interface ClientOptions {
  secret?: string;
  region?: string;
  virtualHost?: boolean;
  accessKeyId?: string;
}

/** Every host name resolves to the loopback address: virtual-host-style names need no DNS. */
const loopbackAgent = () =>
  new http.Agent({
    keepAlive: true,
    lookup: ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
      if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
      else callback(null, '127.0.0.1', 4);
    }) as never,
  });

export function s3Client(plane: S3Plane, zone: Pick<S3Zone, 'Name' | 'Password' | 'Region' | 'S3Hostname'>, options: ClientOptions = {}): S3Client {
  return new S3Client({
    endpoint: options.virtualHost ? `http://${zone.S3Hostname}:${plane.port}` : plane.url,
    forcePathStyle: !options.virtualHost,
    region: options.region ?? zone.Region.toLowerCase(),
    credentials: { accessKeyId: options.accessKeyId ?? zone.Name, secretAccessKey: options.secret ?? zone.Password },
    maxAttempts: 1,
    requestHandler: { httpAgent: loopbackAgent() },
  });
}

/** What an S3 test works with: an app, its S3 and storage planes, an S3 zone, and the SDK client signed in to it. */
export interface S3Env {
  t: TestContext;
  plane: S3Plane;
  storage: StoragePlane;
  zone: S3Zone;
  s3: S3Client;
  /** Restarts the server (the store and files kept) and opens the planes and the client again. */
  restart(): Promise<void>;
}

/**
 * A fresh S3 environment for every test of the enclosing `describe`, closed after it: a zone named
 * `<prefix>-<random>`. Read its fields inside the tests (they are set before each one).
 */
export function useS3Env(zonePrefix: string): S3Env {
  const env = {} as S3Env;
  const open = async () => {
    env.plane = await startS3Plane(env.t);
    env.storage = await startStoragePlane(env.t);
    env.s3 = s3Client(env.plane, env.zone);
  };
  const close = async () => {
    env.s3.destroy();
    await env.plane.close();
    await env.storage.close();
  };
  env.restart = async () => {
    await close();
    await env.t.restart();
    await open();
  };
  beforeEach(async () => {
    env.t = await createTestApp();
    env.zone = await createS3Zone(env.t, `${zonePrefix}-${randomBytes(3).toString('hex')}`);
    await open();
  });
  afterEach(async () => {
    await close();
    await env.t.close();
  });
  return env;
}
