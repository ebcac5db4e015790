#!/usr/bin/env node
/**
 * The `edgeplane` binary (dist/bundle/cli.js): loads the CLI bundle beside it (cli.cjs) through the
 * code cache, as server.js loads the server's, so a command does not parse and compile 3.5 MB of
 * JavaScript each time it runs. The CLI runs as it loads (src/cli.ts); the cache is written when
 * the command exits (or, for `serve`, once the server stops).
 */
import { fileURLToPath } from 'node:url';
import { flushNodeCompileCache, prepareForBundle } from './bundle-globals.js';
import { cacheDirFromEnv, loadBundle } from './code-cache.js';

// Written by the build (scripts/bundle.mjs): the SHA-256 of cli.cjs.
declare const EDGEPLANE_BUNDLE_DIGEST: string;

const bundleFile = fileURLToPath(new URL('./cli.cjs', import.meta.url));
prepareForBundle(bundleFile);
const bundle = loadBundle(bundleFile, { dir: cacheDirFromEnv(process.env), digest: EDGEPLANE_BUNDLE_DIGEST });
process.once('exit', () => {
  bundle.save();
  flushNodeCompileCache();
});
