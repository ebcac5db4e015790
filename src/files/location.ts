/**
 * Which files backend the configuration names: `EDGEPLANE_FILES_URL`, or by default a `files/`
 * folder beside the SQLite database (a temporary folder, removed on close, for `sqlite::memory:`).
 * PostgreSQL has no default: several instances must share one backend, so it must be named.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { ConfigError, type Config } from '../config.js';
import { openBlobStore } from './open.js';
import type { BlobStore } from './types.js';

export function filesUrlOf(config: Pick<Config, 'filesUrl' | 'databaseUrl'>): { url: string; temporaryDir?: string } {
  if (config.filesUrl) return { url: config.filesUrl };
  const db = config.databaseUrl;
  if (!db.startsWith('sqlite:')) {
    throw new ConfigError(
      'Invalid configuration:\n  EDGEPLANE_FILES_URL: with PostgreSQL it must be set: every instance needs the same files backend (s3://… or a file: path all instances share).',
    );
  }
  const path = db.slice('sqlite:'.length);
  if (path === ':memory:') {
    const temporaryDir = mkdtempSync(join(tmpdir(), 'edgeplane-files-'));
    return { url: `file:${temporaryDir}`, temporaryDir };
  }
  return { url: `file:${join(dirname(resolve(path)), 'files')}` };
}

/** Opens the configured backend; closing it also removes a temporary folder. */
export function openFilesBackend(config: Pick<Config, 'filesUrl' | 'databaseUrl'>): BlobStore {
  const { url, temporaryDir } = filesUrlOf(config);
  let blobs: BlobStore;
  try {
    blobs = openBlobStore(url);
  } catch (error) {
    throw new ConfigError(`Invalid configuration:\n  EDGEPLANE_FILES_URL: ${(error as Error).message}`);
  }
  if (!temporaryDir) return blobs;
  return {
    kind: blobs.kind,
    write: (key, body, options) => blobs.write(key, body, options),
    read: (key, range) => blobs.read(key, range),
    readBytes: (key, range) => blobs.readBytes(key, range),
    delete: (key) => blobs.delete(key),
    list: (prefix) => blobs.list(prefix),
    close: async () => {
      await blobs.close();
      rmSync(temporaryDir, { recursive: true, force: true });
    },
  };
}

/**
 * The configured backend, opened on first use: the command line builds every service, though most
 * commands never touch a file, and should not fail for want of a backend they do not use.
 */
export function openFilesBackendLazily(config: Pick<Config, 'filesUrl' | 'databaseUrl'>): BlobStore {
  let opened: BlobStore | undefined;
  const blobs = () => (opened ??= openFilesBackend(config));
  return {
    get kind() {
      return blobs().kind;
    },
    write: (key, body, options) => blobs().write(key, body, options),
    read: (key, range) => blobs().read(key, range),
    readBytes: (key, range) => blobs().readBytes(key, range),
    delete: (key) => blobs().delete(key),
    list: (prefix) => blobs().list(prefix),
    close: async () => {
      await opened?.close();
    },
  };
}
