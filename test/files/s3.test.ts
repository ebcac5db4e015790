import { ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openBlobStore } from '../../src/files/open.js';
import { LARGEST_BLOB, uploadShape } from '../../src/files/s3.js';
import type { BlobStore } from '../../src/files/types.js';
import { blobStoreContract, collect } from './blob-store-contract.js';
import { S3RVER_CREDENTIALS, startTestS3Server, type TestS3Server } from './s3-test-server.js';

const MiB = 1024 * 1024;
const PREFIX = 'edgeplane/files';

let server: TestS3Server;
const storeUrl = (prefix = PREFIX) => `s3://${server.bucket}/${prefix}?endpoint=${server.endpoint}&region=eu-west-1&forcePathStyle=true`;

beforeAll(async () => {
  server = await startTestS3Server();
  // The backend takes its credentials where it does in production: the SDK's default chain.
  for (const [name, value] of Object.entries(S3RVER_CREDENTIALS)) vi.stubEnv(name, value);
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await server.close();
});

describe('S3 (s3rver): the BlobStore contract', () => {
  blobStoreContract(async () => openBlobStore(storeUrl()));
});

describe('S3 (s3rver): objects in the bucket', () => {
  let store: BlobStore;
  let raw: S3Client;
  beforeAll(() => {
    store = openBlobStore(storeUrl());
    raw = new S3Client({ endpoint: server.endpoint, region: 'eu-west-1', forcePathStyle: true });
  });
  afterAll(async () => {
    await store.close();
    raw.destroy();
  });

  async function objectKeys(prefix: string): Promise<string[]> {
    const listed = await raw.send(new ListObjectsV2Command({ Bucket: server.bucket, Prefix: prefix }));
    return (listed.Contents ?? []).map((object) => object.Key!).sort();
  }

  it("keeps each blob under the URL's prefix", async () => {
    await store.write('zone7/placed', Readable.from([Buffer.from('x')]), { maxBytes: 10 });
    expect(await objectKeys('edgeplane/files/zone7/')).toEqual(['edgeplane/files/zone7/placed']);
    const elsewhere = openBlobStore(storeUrl('other'));
    expect(await collect(elsewhere.list('zone7/'))).toEqual([]);
    await elsewhere.close();
  });

  it('lists only objects whose names it could have written', async () => {
    await store.write('foreign/ours', Readable.from([Buffer.from('x')]), { maxBytes: 10 });
    // (s3rver cannot hold a key with `//`, which S3 allows.)
    for (const key of ['foreign/not a key', 'foreign/@odd', 'foreign/ü']) {
      await raw.send(new PutObjectCommand({ Bucket: server.bucket, Key: `${PREFIX}/${key}`, Body: 'x' }));
    }
    expect((await collect(store.list('foreign/'))).map((blob) => blob.key)).toEqual(['foreign/ours']);
  });

  it('sends a large blob as a multipart upload, leaving one object', async () => {
    const body = Readable.from([Buffer.alloc(6 * MiB, 1), Buffer.alloc(6 * MiB, 2)]);
    expect((await store.write('zone7/multipart', body, { maxBytes: 100 * MiB })).size).toBe(12 * MiB);
    expect(await objectKeys('edgeplane/files/zone7/multipart')).toEqual(['edgeplane/files/zone7/multipart']);
  });
});

describe('S3 upload shape', () => {
  it('uses 5 MiB parts, four in flight, while maxBytes fits in 10,000 of them', () => {
    expect(uploadShape(1024 * MiB)).toEqual({ partSize: 5 * MiB, queueSize: 4 });
    expect(uploadShape(50_000 * MiB)).toEqual({ partSize: 5 * MiB, queueSize: 4 });
  });

  it('grows the parts beyond that, up to 64 MiB, and keeps fewer in flight to bound memory', () => {
    expect(uploadShape(200_000 * MiB)).toEqual({ partSize: 20 * MiB, queueSize: 3 });
    expect(uploadShape(LARGEST_BLOB)).toEqual({ partSize: 64 * MiB, queueSize: 1 });
    expect(uploadShape(Number.MAX_SAFE_INTEGER)).toEqual({ partSize: 64 * MiB, queueSize: 1 });
    expect(LARGEST_BLOB).toBe(625 * 1024 * MiB);
  });

  it('takes a write whose maxBytes is far past what S3 can hold (parts stay at 64 MiB)', async () => {
    const store = openBlobStore(storeUrl());
    const written = await store.write('zone7/unbounded', Readable.from([Buffer.from('x')]), { maxBytes: Number.MAX_SAFE_INTEGER });
    expect(written.size).toBe(1);
    await store.close();
  });
});
