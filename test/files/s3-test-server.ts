/**
 * A real S3-compatible server for the tests: s3rver, in this process, on a free loopback port,
 * keeping its objects in a temporary directory. It accepts the access key `S3RVER` with the
 * secret `S3RVER`.
 *
 * What s3rver lacks, and how the tests live with it:
 * - AbortMultipartUpload answers 405, so an aborted upload's parts stay in its uploads folder;
 *   they are not objects (neither listed nor readable), which is what the tests check.
 * - A range ending at byte 0 (`bytes=0-0`, the first byte) comes back whole, because its store reads
 *   `options.end || Infinity`. `fixFirstByteRange` corrects that one line's arithmetic; everything
 *   else is s3rver's own.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

export interface TestS3Server {
  endpoint: string;
  bucket: string;
  close(): Promise<void>;
}

export const S3RVER_CREDENTIALS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };

export async function startTestS3Server(bucket = 'edgeplane-test'): Promise<TestS3Server> {
  const directory = await mkdtemp(join(tmpdir(), 'edgeplane-s3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  fixFirstByteRange(server);
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

interface ObjectStore {
  getObject(bucket: string, key: string, options?: { start?: number; end?: number | object }): Promise<unknown>;
}

function fixFirstByteRange(server: S3rver): void {
  const store = (server as unknown as { store: ObjectStore }).store;
  const getObject = store.getObject.bind(store);
  // A Number object is truthy, so it survives the `||`, and reads as 0 in the arithmetic after it.
  store.getObject = (bucket, key, options) => getObject(bucket, key, options?.end === 0 ? { ...options, end: new Number(0) } : options);
}
