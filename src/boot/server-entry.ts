/**
 * `npm start` (dist/bundle/server.js, CommonJS like the whole bundle folder): loads the server
 * bundle beside it (server.cjs) through the code cache, starts it, and once every plane listens
 * writes the cache for the next start.
 */
import { fileURLToPath } from 'node:url';
import { flushNodeCompileCache, prepareForBundle } from './bundle-globals.js';
import { cacheDirFromEnv, loadBundle } from './code-cache.js';

// Written by the build (scripts/bundle.mjs): the SHA-256 of server.cjs.
declare const EDGEPLANE_BUNDLE_DIGEST: string;

const bundleFile = fileURLToPath(new URL('./server.cjs', import.meta.url));
prepareForBundle(bundleFile);
const bundle = loadBundle<{ start(): Promise<void> }>(bundleFile, {
  dir: cacheDirFromEnv(process.env),
  digest: EDGEPLANE_BUNDLE_DIGEST,
});
bundle.exports.start().then(
  // Once every plane listens rather than at exit, which a killed server never reaches.
  () =>
    setImmediate(() => {
      bundle.save();
      flushNodeCompileCache();
    }),
  (error: unknown) => {
    // What an uncaught exception does, without Node quoting the (minified) line it was rethrown from.
    console.error(error);
    process.exit(1);
  },
);
