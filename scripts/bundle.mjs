/**
 * `npm run build`: bundles the server and the CLI into dist/bundle/ with esbuild; `npm start` and
 * the `edgeplane` binary run these files. (Types are checked by `npm test`, with tsc.)
 *
 * Why a bundle: on Node 20, loading ~700 ES module files (TypeBox alone is hundreds) took ~0.4 s
 * of a ~0.6 s start-up; one bundle loads in a fraction of that.
 *
 * Left out of the bundle, loaded from node_modules at run time: the native SQLite binding, the
 * PostgreSQL driver (loaded only when DATABASE_URL names PostgreSQL), pino and its pretty printer
 * (their transports run in worker threads that load files by path), the docs page's static
 * files (served from the package's own folder), and pdfkit (it loads its fonts through its own
 * package's import map, relative to its files).
 */
import { build } from 'esbuild';
import { chmodSync, rmSync } from 'node:fs';

const EXTERNAL = ['better-sqlite3', 'pg', 'pg-native', 'pino', 'pino-pretty', 'thread-stream', '@fastify/swagger-ui', 'pdfkit'];

// Chunk names carry a content hash: without this, every build would leave the last one's behind.
rmSync('dist/bundle', { recursive: true, force: true });
await build({
  entryPoints: { server: 'src/server.ts', cli: 'src/cli.ts' },
  outdir: 'dist/bundle',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  external: EXTERNAL,
  // CommonJS dependencies call require(); an ES module has none, so give each chunk one.
  banner: { js: "import { createRequire as __edgeplaneCreateRequire } from 'node:module'; const require = __edgeplaneCreateRequire(import.meta.url);" },
  logLevel: 'warning',
  legalComments: 'none',
  // Start-up compiles the whole main chunk: without comments and whitespace it is 30% smaller and
  // pure ASCII (a comment's "→" made V8 hold all of it as two-byte text), which cut spawn-to-first-
  // answer by about a tenth. Names stay, so stack traces still name their functions; the source
  // maps beside the chunks give lines again under `NODE_OPTIONS=--enable-source-maps`.
  minifyWhitespace: true,
  sourcemap: 'linked',
});
chmodSync('dist/bundle/cli.js', 0o755);
