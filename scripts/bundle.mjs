/**
 * `npm run build`: bundles the server and the CLI into dist/bundle/ with esbuild; `npm start` and
 * the `edgeplane` binary run these files. (Types are checked by `npm test`, with tsc.) Another
 * folder two levels below the package root may be named as the argument: the tests build the
 * processes they start there (test/setup/server-bundle.ts).
 *
 * Why a bundle: on Node 20, loading ~700 ES module files (TypeBox alone is hundreds) took ~0.4 s
 * of a ~0.6 s start-up; one bundle loads in a fraction of that.
 *
 * The server is one CommonJS file, server.cjs, loaded by server.js (src/boot/server-entry.ts)
 * through V8's code cache, which Node offers for scripts but not for ES modules on Node 20; its
 * SHA-256 is written into server.js, so a cache never serves another build. The CLI is the same:
 * cli.cjs, loaded by cli.js (src/boot/cli-entry.ts), the package's binary.
 *
 * Left out of the bundles, loaded from node_modules at run time: the native SQLite binding, the
 * PostgreSQL driver (loaded only when DATABASE_URL names PostgreSQL), pino's pretty printer (it
 * runs in a worker thread, loaded by path; src/boot/bundle-globals.ts tells the bundled pino where
 * that thread's own file is), the docs page's static files (served from the package's own
 * folder), pdfkit (it loads its fonts from files beside its own), sharp (its libvips binding is
 * a native file of a platform package it finds at run time) and esbuild (the optimizer's
 * minifier: its JavaScript API starts its own binary).
 *
 * The web console (src/console/) is built here too, for browsers, into console/ beside the
 * bundles: the API plane serves it at `/` (src/planes/api/plugins/console.ts).
 */
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';

const EXTERNAL = ['better-sqlite3', 'pg', 'pg-native', 'pino-pretty', '@fastify/swagger-ui', 'pdfkit', 'sharp', 'esbuild'];

/**
 * Libraries a start does not need, each a CommonJS file of its own beside the bundles, required
 * when a feature first uses them: the AWS SDK (an S3 files backend) and the X.509 library (the
 * first certificate). A third of the server's code (1.7 MB of 4.6) that every start read and
 * that V8 hashed and kept stubs of in the code cache. Each is entered through one module of ours
 * that imports nothing else of the project, so no class of ours exists twice.
 */
const LOADED_LATER = { 'src/files/s3-sdk.ts': 'vendor-s3', 'src/domain/certificates/x509.ts': 'vendor-x509' };

const loadedLater = {
  name: 'loaded-later',
  setup(build) {
    build.onResolve({ filter: /^\.\.?\/.*\.js$/ }, (args) => {
      const source = relative(process.cwd(), resolve(args.resolveDir, args.path.replace(/\.js$/, '.ts')));
      const file = LOADED_LATER[source];
      // The entry itself is bundled, of course: only imports from elsewhere are pointed at its file.
      if (!file || args.kind === 'entry-point') return undefined;
      return { path: `./${file}.cjs`, external: true };
    });
  },
};

/**
 * find-my-way (Fastify's router) compiles a `new Function` for every static node of its tree, to
 * match the node's prefix with unrolled character comparisons: ~6 ms of every start for ~180
 * routes, which no code cache can hold. In the bundle the same test is `String#startsWith` (the
 * first character, which the compiled code skips, is the one the parent already matched). The
 * cached reads do not route through it (the front door answers them). Fails the build if the
 * router's code no longer reads as expected.
 */
const routerPrefixMatch = {
  name: 'router-prefix-match',
  setup(build) {
    build.onLoad({ filter: /[\\/]find-my-way[\\/]lib[\\/]node\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const compiled = / {2}const lines = \[\]\n {2}for \(let i = 1; i < prefix\.length; i\+\+\) \{\n[\s\S]*?\n {2}return new Function\([^\n]*\n/;
      if (!compiled.test(source)) throw new Error(`${args.path}: compilePrefixMatch is not the code this build expects`);
      return { contents: source.replace(compiled, '  return function matchPrefix (path, i) { return path.startsWith(prefix, i) }\n'), loader: 'js' };
    });
  },
};

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20.19',
  external: EXTERNAL,
  logLevel: 'warning',
  legalComments: 'none',
  // Start-up compiles the whole bundle: without comments and whitespace it is 30% smaller and
  // pure ASCII (a comment's "→" made V8 hold all of it as two-byte text), which cut spawn-to-first-
  // answer by about a tenth. Names stay, so stack traces still name their functions; the source
  // maps beside the files give lines again under `NODE_OPTIONS=--enable-source-maps`.
  minifyWhitespace: true,
  sourcemap: 'linked',
};

const OUT = process.argv[2] ?? 'dist/bundle';
rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
// CommonJS files, for all their .js names (the project's package.json says "module"): Node loads a
// CommonJS entry without starting its ES module loader, ~10 ms of every start.
writeFileSync(`${OUT}/package.json`, `${JSON.stringify({ type: 'commonjs' })}\n`);

const commonJs = {
  ...common,
  outdir: OUT,
  format: 'cjs',
  // import() of a package becomes require(): the same files, resolved from the bundle's folder
  // (also when it runs through the code cache's vm.Script, which has no module of its own).
  supported: { 'dynamic-import': false },
  // Modules that find files beside themselves, or require from node_modules at run time, ask
  // import.meta.url, which CommonJS lacks.
  define: { 'import.meta.url': 'EDGEPLANE_IMPORT_META_URL' },
  banner: { js: "const EDGEPLANE_IMPORT_META_URL = require('node:url').pathToFileURL(__filename).href;" },
};

await build({
  ...commonJs,
  entryPoints: Object.fromEntries(Object.entries(LOADED_LATER).map(([source, file]) => [file, source])),
  outExtension: { '.js': '.cjs' },
});
/** A bundle (`name`.cjs) from `source`, and its loader (`name`.js) from `entry`, which knows the bundle's SHA-256. */
async function bundleWithLoader(name, source, entry) {
  await build({ ...commonJs, entryPoints: { [name]: source }, outExtension: { '.js': '.cjs' }, plugins: [loadedLater, routerPrefixMatch] });
  const digest = createHash('sha256')
    .update(readFileSync(`${OUT}/${name}.cjs`))
    .digest('hex');
  await build({ ...commonJs, entryPoints: { [name]: entry }, define: { ...commonJs.define, EDGEPLANE_BUNDLE_DIGEST: JSON.stringify(digest) } });
}
await bundleWithLoader('server', 'src/start.ts', 'src/boot/server-entry.ts');
await bundleWithLoader('cli', 'src/cli.ts', 'src/boot/cli-entry.ts');
chmodSync(`${OUT}/cli.js`, 0o755);

/**
 * The web console: one minified script and one style sheet (Preact and uPlot inside), and its
 * page. Nothing is fetched from elsewhere at run time; the sizes are the README's.
 */
await build({
  // The download worker (a service worker) is a script of its own: it cannot be part of the page's.
  entryPoints: { console: 'src/console/main.tsx', 'download-worker': 'src/console/download-worker.ts' },
  outdir: `${OUT}/console`,
  bundle: true,
  platform: 'browser',
  format: 'esm',
  target: ['chrome120', 'firefox120', 'safari16'],
  minify: true,
  jsx: 'automatic',
  jsxImportSource: 'preact',
  tsconfig: 'src/console/tsconfig.json',
  legalComments: 'none',
  logLevel: 'warning',
});
copyFileSync('src/console/index.html', `${OUT}/console/index.html`);
