/**
 * What a bundle needs of its process before it loads (src/boot/server-entry.ts and cli-entry.ts):
 * Node's own compile cache where Node has one, and where pino's pretty transport finds its worker.
 */
import module, { createRequire } from 'node:module';

// Typed by hand: the project's Node types are those of Node 20, which lacks both. On Node 22+ this
// also caches what the bundle loads from node_modules (the SQLite binding's JavaScript, pino).
const nodeCompileCache = module as { enableCompileCache?: () => unknown; flushCompileCache?: () => void };

/** Turns on Node's compile cache (Node 22+) and tells the bundled pino where its worker's file is. */
export function prepareForBundle(bundleFile: string): void {
  nodeCompileCache.enableCompileCache?.();
  // pino is in the bundle, but the worker thread of its pretty transport (a terminal's logs) runs
  // thread-stream's worker file, which a bundle cannot hold: pino asks this global where it is.
  // Resolved when asked, so a start that logs JSON does not pay for it.
  const bundlerPaths = {};
  Object.defineProperty(bundlerPaths, 'thread-stream-worker', {
    enumerable: true,
    get: () => createRequire(createRequire(bundleFile).resolve('pino')).resolve('thread-stream/lib/worker.js'),
  });
  Object.assign(globalThis, { __bundlerPathsOverrides: bundlerPaths });
}

/** Writes Node's compile cache now (Node 22+), rather than at exit, which a killed process never reaches. */
export function flushNodeCompileCache(): void {
  nodeCompileCache.flushCompileCache?.();
}
