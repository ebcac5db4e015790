import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalDiskBlobStore } from '../../src/files/local-disk.js';
import { openBlobStore, parseBlobStoreUrl } from '../../src/files/open.js';
import { LazyS3BlobStore } from '../../src/files/lazy-s3.js';

describe('file: locations', () => {
  it.each([
    ['file:./data/files', resolve('data/files')],
    ['file:data/files', resolve('data/files')],
    ['file:/var/lib/edgeplane/files', '/var/lib/edgeplane/files'],
    ['file:///var/lib/edgeplane/files', '/var/lib/edgeplane/files'],
    ['file://localhost/var/lib/edgeplane/files', '/var/lib/edgeplane/files'],
  ])('%s is the directory %s', (url, directory) => {
    expect(parseBlobStoreUrl(url)).toEqual({ kind: 'file', directory });
  });

  it('opens a local directory', async () => {
    const store = openBlobStore('file:./data/files');
    expect(store).toBeInstanceOf(LocalDiskBlobStore);
    expect(store.kind).toBe('file');
    expect((store as LocalDiskBlobStore).directory).toBe(resolve('data/files'));
    await store.close();
  });
});

describe('s3: locations', () => {
  it('takes a bare bucket, addressed AWS-style', () => {
    expect(parseBlobStoreUrl('s3://edgeplane-files')).toEqual({ kind: 's3', bucket: 'edgeplane-files', prefix: '', forcePathStyle: false });
  });

  it('takes a prefix, an endpoint, a region and path-style addressing', () => {
    expect(parseBlobStoreUrl('s3://files.example/edge/plane/?endpoint=http://127.0.0.1:9000&region=eu-central-1&forcePathStyle=true')).toEqual({
      kind: 's3',
      bucket: 'files.example',
      prefix: 'edge/plane',
      endpoint: 'http://127.0.0.1:9000',
      region: 'eu-central-1',
      forcePathStyle: true,
    });
  });

  it('opens an S3 store without reaching it', async () => {
    const store = openBlobStore('s3://edgeplane-files?endpoint=https://s3.example.net');
    // The SDK loads on the first call, not here (see lazy-s3.ts).
    expect(store).toBeInstanceOf(LazyS3BlobStore);
    expect(store.kind).toBe('s3');
    await store.close();
  });
});

describe('bad locations', () => {
  it.each([
    ['', 'unknown kind of location'],
    ['/var/lib/edgeplane', 'unknown kind of location'],
    ['http://files.example', 'unknown kind of location'],
    ['file:', 'file: needs a directory'],
    ['file://files.example/share', 'not a local file URL'],
    ['s3://', 'the bucket is'],
    ['s3://Files', 'the bucket is'],
    ['s3://ab', 'the bucket is'],
    ['s3://key:secret@files', 'credentials do not belong in the URL'],
    ['s3://files:9000', 'a port belongs in the endpoint parameter'],
    ['s3://files/a/../b', 'the prefix holds only'],
    ['s3://files/a%2Fb', 'the prefix holds only'],
    ['s3://files/a//b', 'the prefix holds only'],
    ['s3://files//a', 'the prefix holds only'],
    ['s3://files#a', 'no #fragment'],
    ['s3://files?endpoint=localhost:9000', 'the endpoint is an http(s) URL'],
    ['s3://files?endpoint=ftp://files.example', 'the endpoint is an http(s) URL'],
    ['s3://files?region=EU%20West', 'the region is'],
    ['s3://files?forcePathStyle=yes', 'forcePathStyle is true or false'],
    ['s3://files?pathStyle=true', 'unknown parameter pathStyle'],
  ])('%j: %s', (url, reason) => {
    expect(() => openBlobStore(url)).toThrow(reason);
  });

  it('says which forms are accepted, without repeating the URL', () => {
    const error = (() => {
      try {
        openBlobStore('s3://key:very-secret@files');
      } catch (caught) {
        return caught as Error;
      }
      throw new Error('accepted');
    })();
    expect(error.message).toContain('file:<directory>');
    expect(error.message).toContain('s3://<bucket>[/<prefix>][?endpoint=<http(s) URL>&region=<region>&forcePathStyle=true|false]');
    expect(error.message).not.toContain('very-secret');
  });
});
