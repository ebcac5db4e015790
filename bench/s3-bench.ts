/**
 * The `s3` workload: PutObject and GetObject of 4 KiB and 1 MiB objects through the AWS SDK v3
 * S3 client, beside the same uploads and downloads through the file API, in the same run, with the
 * same closed-loop driver (a fixed number of requests in flight for a fixed time). A third column
 * replays requests signed once (SigV4 allows it within the clock-skew window) through undici, so
 * the plane's own cost shows apart from the SDK's work in the benchmark process.
 */
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { Readable } from 'node:stream';
import { Agent, request } from 'undici';
import { signedHeaders } from '../test/helpers/s3-signing.js';
import type { Client } from './seed.js';
import type { Child } from './server.js';

export interface S3Case {
  op: 'PUT' | 'GET';
  bytes: number;
  /** Operations per second and mean latency, per way of sending them. */
  fileApi: Rate;
  sdk: Rate;
  presignedReplay: Rate;
}

export interface Rate {
  ops: number;
  seconds: number;
  perSecond: number;
  meanMs: number;
  failures: number;
}

export interface S3Report {
  concurrency: number;
  seconds: number;
  cases: S3Case[];
}

const CONCURRENCY = 16;

async function closedLoop(seconds: number, op: (i: number) => Promise<boolean>): Promise<Rate> {
  const until = performance.now() + seconds * 1000;
  let ops = 0;
  let failures = 0;
  let latency = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, worker) => {
      for (let i = worker; performance.now() < until; i += CONCURRENCY) {
        const t0 = performance.now();
        const ok = await op(i).catch(() => false);
        latency += performance.now() - t0;
        if (ok) ops++;
        else failures++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  return { ops, seconds: elapsed, perSecond: ops / elapsed, meanMs: latency / Math.max(1, ops + failures), failures };
}

export async function measureS3(
  server: Child,
  client: Client,
  timing: { seconds: number; warmupSeconds: number },
  tag: string,
  log: (message: string) => void,
): Promise<S3Report> {
  const s3url = server.planes['s3'];
  const storage = server.planes['storage'];
  if (!s3url || !storage) throw new Error('the s3 and storage planes must be listening');
  const zone = await client.call<{ Name: string; Password: string; Region: string }>('POST', '/storagezone', 201, {
    Name: `${tag}-s3`,
    Region: 'DE',
    StorageZoneType: 1,
  });
  const credentials = { accessKeyId: zone.Name, secretAccessKey: zone.Password, region: 'de' };
  const sdk = new S3Client({
    endpoint: s3url,
    forcePathStyle: true,
    region: 'de',
    credentials,
    requestHandler: { httpAgent: new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY }) },
  });
  const dispatcher = new Agent({ connections: CONCURRENCY });
  const seconds = Math.min(timing.seconds, 5);
  const cases: S3Case[] = [];
  try {
    for (const bytes of [4 * 1024, 1024 * 1024]) {
      const body = randomBytes(bytes);
      const label = bytes >= 1024 * 1024 ? '1 MiB' : '4 KiB';
      const keys = Array.from({ length: 64 }, (_, i) => `bench/${bytes}/${i}.bin`);
      const key = (i: number) => keys[i % keys.length]!;

      log(`s3: PUT ${label}: file API, AWS SDK, replayed signed requests (${seconds} s each, ${CONCURRENCY} in flight)`);
      const filePut = (i: number) =>
        request(`${storage}/${zone.Name}/${key(i)}`, { method: 'PUT', headers: { AccessKey: zone.Password }, body, dispatcher }).then(async (r) => {
          await r.body.dump();
          return r.statusCode === 201;
        });
      const sdkPut = (i: number) => sdk.send(new PutObjectCommand({ Bucket: zone.Name, Key: key(i), Body: body })).then(() => true);
      const putHeaders = await Promise.all(
        keys.map((k) => signedHeaders(s3url, 'PUT', `/${zone.Name}/${k}`, credentials, 'UNSIGNED-PAYLOAD', { 'content-length': String(bytes) })),
      );
      const replayPut = (i: number) =>
        request(`${s3url}/${zone.Name}/${key(i)}`, { method: 'PUT', headers: putHeaders[i % keys.length]!, body, dispatcher }).then(async (r) => {
          await r.body.dump();
          return r.statusCode === 200;
        });
      await closedLoop(timing.warmupSeconds, filePut);
      const putCase: S3Case = {
        op: 'PUT',
        bytes,
        fileApi: await closedLoop(seconds, filePut),
        sdk: await closedLoop(seconds, sdkPut),
        presignedReplay: await closedLoop(seconds, replayPut),
      };
      cases.push(putCase);

      log(`s3: GET ${label}: file API, AWS SDK, replayed signed requests`);
      const fileGet = (i: number) =>
        request(`${storage}/${zone.Name}/${key(i)}`, { headers: { AccessKey: zone.Password }, dispatcher }).then(async (r) => {
          await r.body.dump();
          return r.statusCode === 200;
        });
      const sdkGet = (i: number) =>
        sdk.send(new GetObjectCommand({ Bucket: zone.Name, Key: key(i) })).then(async (r) => {
          // Read and dropped, as the other columns do (collecting it whole would measure Buffer.concat).
          for await (const _chunk of r.Body as Readable);
          return true;
        });
      const getHeaders = await Promise.all(keys.map((k) => signedHeaders(s3url, 'GET', `/${zone.Name}/${k}`, credentials, 'UNSIGNED-PAYLOAD')));
      const replayGet = (i: number) =>
        request(`${s3url}/${zone.Name}/${key(i)}`, { headers: getHeaders[i % keys.length]!, dispatcher }).then(async (r) => {
          await r.body.dump();
          return r.statusCode === 200;
        });
      await closedLoop(timing.warmupSeconds, fileGet);
      cases.push({
        op: 'GET',
        bytes,
        fileApi: await closedLoop(seconds, fileGet),
        sdk: await closedLoop(seconds, sdkGet),
        presignedReplay: await closedLoop(seconds, replayGet),
      });
    }
  } finally {
    sdk.destroy();
    await dispatcher.close();
  }
  return { concurrency: CONCURRENCY, seconds, cases };
}

export function renderS3(report: S3Report): string {
  const rows = report.cases.map((c) => {
    const size = c.bytes >= 1024 * 1024 ? '1 MiB' : '4 KiB';
    const fmt = (r: Rate) => `${Math.round(r.perSecond).toLocaleString('en-US')}/s (${r.meanMs.toFixed(1)} ms)`;
    return `| ${c.op === 'PUT' ? 'PutObject' : 'GetObject'} ${size} | ${fmt(c.fileApi)} | ${fmt(c.sdk)} | ${(c.sdk.perSecond / c.fileApi.perSecond).toFixed(2)} | ${fmt(c.presignedReplay)} | ${(c.presignedReplay.perSecond / c.fileApi.perSecond).toFixed(2)} |`;
  });
  return [
    `S3 plane: ${report.concurrency} requests in flight, ${report.seconds} s per column (mean latency in brackets)`,
    '',
    '| operation | file API | S3, AWS SDK v3 | SDK ÷ file API | S3, signed requests replayed | replayed ÷ file API |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}

export function s3Failures(report: S3Report | undefined): string[] {
  if (!report) return [];
  return report.cases.flatMap((c) =>
    (['fileApi', 'sdk', 'presignedReplay'] as const).filter((k) => c[k].failures > 0).map((k) => `s3 ${c.op} ${c.bytes} B (${k}): ${c[k].failures} failed`),
  );
}
