import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The suite runs twice: on SQLite, and on a real PostgreSQL (started by test/setup/postgres.ts, or
 * TEST_DATABASE_URL). Everything that talks to a store runs in both; tests of the server process
 * and of pure code run once; test/postgres/ holds what only PostgreSQL can show (several instances).
 */
const storeTests = [
  'test/http/**/*.test.ts',
  'test/docs/readme-examples.test.ts',
  'test/store/**/*.test.ts',
  'test/postgres/**/*.test.ts',
  'test/security/**/*.test.ts',
  'test/planes/**/*.test.ts',
  'test/videos/**/*.test.ts',
  'test/video-api/**/*.test.ts',
];
/** Under test/planes/ but about protocol mechanics alone, or the same whatever the store: run once (on SQLite). */
const storelessPlaneTests = [
  'test/planes/storage/request-framer.test.ts',
  'test/planes/storage/extension-methods.test.ts',
  // The file API's cross-origin headers: HTTP mechanics, the same whatever the store.
  'test/planes/storage/cross-origin.test.ts',
  // The DNS transport against a fake authority: nothing of the store.
  'test/planes/dns/answers.test.ts',
  'test/planes/dns/limits.test.ts',
  'test/planes/dns/fuzz.test.ts',
  'test/planes/dns/answer-cache.test.ts',
  'test/planes/dns/rate-limit.test.ts',
  'test/planes/dns/dig.test.ts',
  // NSD as a secondary: transfers and NOTIFY are the DNS plane's, the same whatever the store (the
  // serial rule on both stores is test/http/dns/zone-serials.test.ts's).
  'test/planes/dns/secondaries.test.ts',
  // The edge's handler with a stand-in pipeline, and the planes' last-resort listener.
  'test/planes/edge/handler-failures.test.ts',
  // The optimizer's memory while it decodes a 24-megapixel image: libvips' work, the same whatever
  // the store (the optimizer on each store is optimizer.test.ts's).
  'test/planes/edge/optimizer-limits.test.ts',
  // Edge scripts in their Deno processes: the runtime's work, the same whatever the store (the
  // scripting API on each store is test/http/edge-scripts/'s; publishing across instances on
  // PostgreSQL is test/postgres/edge-scripts.test.ts's).
  'test/planes/edge/edge-scripts.test.ts',
  // Script DNS records answered by a DNS script's Deno process: the same runtime, whatever the store.
  'test/planes/dns/script-records.test.ts',
  // Log forwarding to syslog collectors: sockets and queues in memory, the same whatever the store.
  'test/planes/edge/log-forwarding.test.ts',
  // Real containers (podman): the runtime's work is the same whatever the store.
  'test/planes/edge/container-apps.test.ts',
  // The S3 plane in a server process on its own SQLite file.
  'test/planes/s3/listener.test.ts',
  // Signature Version 4 against AWS's published examples: pure code.
  'test/planes/s3/sigv4-vectors.test.ts',
  // Moving 512 MiB, and 100 MiB through rclone: the bytes' path is the files backend's, the same
  // whatever the store; the multipart state's durability on each store is multipart.test.ts's.
  'test/planes/storage/durability.test.ts',
  'test/planes/s3/rclone.test.ts',
  // Transport: stalled and slow transfers, Expect: 100-continue; the same whatever the store.
  'test/security/transfer-timeouts.test.ts',
  'test/security/expect-continue.test.ts',
  // Server processes killed mid-upload; the sweep's rule on each store is test/store/orphan-sweep.test.ts's.
  'test/planes/storage/crash-orphans.test.ts',
  // Encoding with ffmpeg, playing the result through the edge, an encode taken up after SIGKILL:
  // the bytes' and the jobs' path is the same whatever the store. On each store: the jobs' leases
  // and lanes (test/store/job-lanes.test.ts), a video's progress written concurrently
  // (test/video-api/videos.test.ts), an encode that fails feeding the webhooks (test/video-api/webhooks.test.ts).
  // Tokens and referrers on playback are the edge's policy, whatever the store; the figures of
  // playback are written to the store (test/video-api/play-figures.test.ts runs on both).
  'test/video-api/encoding.test.ts',
  'test/video-api/playback.test.ts',
  'test/video-api/protected-playback.test.ts',
  'test/video-api/encode-restart.test.ts',
];

/**
 * The files that take longest (8 s and more on this machine, most of them ffmpeg, Chromium or
 * waiting out timeouts), started first in each project. Each project's files run to their end
 * before the next project starts, so a long file started last leaves the other worker idle; on a
 * fresh clone vitest has no durations of its own yet (it orders by file size).
 */
const SLOW_FILES = [
  'test/video-api/encoding.test.ts',
  'test/browser/embed.test.ts',
  'test/browser/console.test.ts',
  'test/planes/storage/durability.test.ts',
  'test/security/transfer-timeouts.test.ts',
  // After a few others: on a fresh machine podman is still being installed (test/setup/podman.ts) while they run.
  'test/planes/edge/container-apps.test.ts',
  'test/browser/docs.test.ts',
  'test/fuzz/api.fuzz.test.ts',
  'test/fuzz/spellings.fuzz.test.ts',
  'test/http/dns/records.test.ts',
  'test/video-api/encode-restart.test.ts',
  'test/video-api/protected-playback.test.ts',
  'test/video-api/playback.test.ts',
  'test/video-api/tus.test.ts',
  'test/planes/storage/extension-methods.test.ts',
  'test/server/cli.test.ts',
  'test/media/system-ffmpeg.test.ts',
  'test/planes/s3/multipart.test.ts',
  'test/server/package.test.ts',
  'test/planes/dns/limits.test.ts',
  'test/planes/s3/rclone.test.ts',
  'test/media/run.test.ts',
];

class SlowFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification) => {
      const at = SLOW_FILES.findIndex((path) => spec.moduleId.endsWith(path));
      return at === -1 ? SLOW_FILES.length : at;
    };
    // A stable sort: the rest keep vitest's own order (its recorded durations, or file size).
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
    sequence: { sequencer: SlowFilesFirst },
    // Vitest's default is one worker per core less one: a single worker on a 2-core CI machine,
    // where test files mostly wait on disk syncs, PostgreSQL and child processes. Two keep both
    // cores busy (each PostgreSQL test works in a database of its own; apt installs take turns).
    // Three were tried (a run with two used 1.65 cores on average): every CPU-bound file took half
    // as long again, and the run was slower.
    maxWorkers: 2,
    // Each worker imports the server's modules once rather than once per file: importing them was
    // half of CI's time (collect 620 s of 1,490). Safe because every test builds its own app, store
    // and planes, and no module keeps state from one test file to the next.
    isolate: false,
    projects: [
      {
        extends: true,
        test: {
          name: 'sqlite',
          include: ['test/**/*.test.ts'],
          exclude: ['test/postgres/**'],
          env: { TEST_STORE: 'sqlite' },
          globalSetup: ['test/setup/podman.ts', 'test/setup/chromium.ts', 'test/setup/sqlite-template.ts', 'test/setup/server-bundle.ts'],
          setupFiles: ['test/setup/reference-responses.ts'],
        },
      },
      {
        extends: true,
        // test/store/sqlite-*: how the SQLite store itself works (group commit), nothing to run on PostgreSQL.
        test: {
          name: 'postgres',
          include: storeTests,
          exclude: ['test/store/sqlite-*.test.ts', ...storelessPlaneTests],
          env: { TEST_STORE: 'postgres' },
          globalSetup: ['test/setup/sqlite-template.ts', 'test/setup/server-bundle.ts', 'test/setup/postgres.ts'],
          setupFiles: ['test/setup/reference-responses.ts'],
        },
      },
    ],
  },
});
