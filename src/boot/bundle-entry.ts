/**
 * `npm start` (dist/bundle/server.js, CommonJS like the whole bundle folder): loads the server
 * bundle beside it (server.cjs) through the code cache, starts it, and once every plane listens
 * writes the cache for the next start.
 */
import module, { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { cacheDirFromEnv, loadBundle } from './code-cache.js';

// Written by the build (scripts/bundle.mjs): the SHA-256 of server.cjs.
declare const EDGEPLANE_BUNDLE_DIGEST: string;

// Typed by hand: the project's Node types are those of Node 20, which lacks both. On Node 22+ this
// also caches what the bundle loads from node_modules (the SQLite binding's JavaScript, pino).
const nodeCompileCache = module as { enableCompileCache?: () => unknown; flushCompileCache?: () => void };
nodeCompileCache.enableCompileCache?.();

const bundleFile = fileURLToPath(new URL('./server.cjs', import.meta.url));

// pino is in the bundle, but the worker thread of its pretty transport (a terminal's logs) runs
// thread-stream's worker file, which a bundle cannot hold: pino asks this global where it is.
// Resolved when asked, so a start that logs JSON does not pay for it.
const bundlerPaths = {};
Object.defineProperty(bundlerPaths, 'thread-stream-worker', {
  enumerable: true,
  get: () => createRequire(createRequire(bundleFile).resolve('pino')).resolve('thread-stream/lib/worker.js'),
});
Object.assign(globalThis, { __bundlerPathsOverrides: bundlerPaths });

const bundle = loadBundle<{ start(): Promise<void> }>(bundleFile, {
  dir: cacheDirFromEnv(process.env),
  digest: EDGEPLANE_BUNDLE_DIGEST,
});
bundle.exports.start().then(
  // Once every plane listens rather than at exit, which a killed server never reaches.
  () =>
    setImmediate(() => {
      bundle.save();
      nodeCompileCache.flushCompileCache?.();
    }),
  (error: unknown) => {
    // What an uncaught exception does, without Node quoting the (minified) line it was rethrown from.
    console.error(error);
    process.exit(1);
  },
);
