/**
 * `npm start`. On Node 22.1+ V8's compiled code for the bundle is kept on disk (Node's compile
 * cache: `NODE_COMPILE_CACHE` picks the folder, `NODE_DISABLE_COMPILE_CACHE=1` turns it off), so a
 * restart skips compiling it again. The cache must be on before the bundle is loaded, hence this
 * entry and the dynamic import; Node 20 has no such cache and simply loads it.
 */
import module from 'node:module';

// Typed by hand: the project's Node types are those of Node 20, which lacks both.
const compileCache = module as { enableCompileCache?: () => unknown; flushCompileCache?: () => void };

compileCache.enableCompileCache?.();
await import('./start.js');
// Written once every plane listens rather than at exit, which a killed server never reaches (22.10+).
setImmediate(() => compileCache.flushCompileCache?.());
