/**
 * Uploads of a video's source against the storage file API's PUT of the same bytes, in the same
 * run, on the same server and disk: the video API's PUT, a tus upload in one PATCH, and a tus
 * upload in 5 MB chunks (as a browser client sends it), each as a share of the file PUT's
 * throughput. 64 MB of random bytes, over 127.0.0.1, one upload at a time, the four alternating.
 * The video uploads queue an encode, which copies the source to a working directory and fails on
 * random bytes: the next upload starts once it has ended and the disk has written what it was
 * left, so that no upload shares the disk with another's work.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { presignedSignature } from '../src/domain/videos/presigned.js';
import type { Target } from './report.js';
import type { Client } from './seed.js';
import type { Child } from './server.js';
import { median, table } from './startup.js';

const MB = 1024 * 1024;
const SIZE = 64 * MB;
const CHUNK = 5 * MB;
const WAYS = ['file API PUT', 'video PUT', 'tus, one PATCH', 'tus, 5 MB chunks'] as const;
type Way = (typeof WAYS)[number];

export interface VideoUploadReport {
  bytes: number;
  runs: number;
  /** Milliseconds of each run, by way of uploading. */
  ms: Record<Way, number[]>;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request with `body` written whole (node:http: the bytes go as they are, framed by their length). */
function send(url: string, method: string, headers: Record<string, string>, body?: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: { ...headers, 'content-length': String(body?.length ?? 0) } }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function expect(answer: Answer, status: number, what: string): Answer {
  if (answer.status !== status) throw new Error(`${what}: expected ${status}, got ${answer.status}: ${answer.body.slice(0, 300)}`);
  return answer;
}

export async function measureVideoUpload(
  server: Child,
  client: Client,
  options: { tag: string; runs: number; log: (m: string) => void },
): Promise<VideoUploadReport> {
  const storage = server.planes['storage'];
  const video = server.planes['video'];
  if (!storage || !video) throw new Error('the storage and video planes must be listening');
  const zone = await client.call<{ Name: string; Password: string }>('POST', '/storagezone', 201, { Name: `${options.tag}-uploads`, Region: 'DE' });
  const library = await client.call<{ Id: number; ApiKey: string }>('POST', '/videolibrary', 201, { Name: `${options.tag}-uploads` });
  const bytes = randomBytes(SIZE);
  const newVideo = async () =>
    JSON.parse(
      expect(
        await send(
          `${video}/library/${library.Id}/videos`,
          'POST',
          { AccessKey: library.ApiKey, 'content-type': 'application/json' },
          Buffer.from('{"title":"bench"}'),
        ),
        200,
        'create video',
      ).body,
    ).guid as string;
  /** Waits until the video's encode has ended (Error, on random bytes). */
  const settled = async (guid: string) => {
    for (const started = Date.now(); Date.now() - started < 120_000; await new Promise((r) => setTimeout(r, 100))) {
      const read = await send(`${video}/library/${library.Id}/videos/${guid}`, 'GET', { AccessKey: library.ApiKey });
      if ([4, 5, 6].includes((JSON.parse(read.body) as { status: number }).status)) return;
    }
    throw new Error(`the encode of video ${guid} did not end within 2 minutes`);
  };
  const tus = async (chunk: number) => {
    const guid = await newVideo();
    const expire = Math.floor(Date.now() / 1000) + 3600;
    const headers = {
      'tus-resumable': '1.0.0',
      AuthorizationSignature: presignedSignature(library.Id, library.ApiKey, expire, guid),
      AuthorizationExpire: String(expire),
      LibraryId: String(library.Id),
      VideoId: guid,
    };
    return {
      guid,
      upload: async () => {
        const metadata = `filetype ${Buffer.from('video/mp4').toString('base64')},title ${Buffer.from('bench').toString('base64')}`;
        const made = expect(
          await send(`${video}/tusupload`, 'POST', { ...headers, 'upload-length': String(SIZE), 'upload-metadata': metadata }),
          201,
          'tus create',
        );
        const location = String(made.headers['location']);
        for (let offset = 0; offset < SIZE; offset += chunk) {
          const piece = bytes.subarray(offset, Math.min(SIZE, offset + chunk));
          const headersOfPatch = { ...headers, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' };
          expect(await send(location, 'PATCH', headersOfPatch, piece), 204, 'tus PATCH');
        }
      },
    };
  };
  const prepare: Record<Way, (run: number) => Promise<{ guid?: string; upload: () => Promise<unknown> }>> = {
    'file API PUT': async (run) => ({
      upload: async () => expect(await send(`${storage}/${zone.Name}/bench-${run}.bin`, 'PUT', { AccessKey: zone.Password }, bytes), 201, 'file PUT'),
    }),
    'video PUT': async () => {
      const guid = await newVideo();
      return {
        guid,
        upload: async () => expect(await send(`${video}/library/${library.Id}/videos/${guid}`, 'PUT', { AccessKey: library.ApiKey }, bytes), 200, 'video PUT'),
      };
    },
    'tus, one PATCH': () => tus(SIZE),
    'tus, 5 MB chunks': () => tus(CHUNK),
  };
  const report: VideoUploadReport = {
    bytes: SIZE,
    runs: options.runs,
    ms: { 'file API PUT': [], 'video PUT': [], 'tus, one PATCH': [], 'tus, 5 MB chunks': [] },
  };
  for (let run = 0; run < options.runs; run++) {
    for (const way of WAYS) {
      const { guid, upload } = await prepare[way](run);
      // Each upload starts with no other write waiting for the disk (the last one's, an encode's copy).
      execFileSync('sync');
      const started = performance.now();
      await upload();
      report.ms[way].push(performance.now() - started);
      if (guid) await settled(guid);
    }
    options.log(`video upload run ${run + 1}/${options.runs}: ${WAYS.map((w) => `${w} ${Math.round(report.ms[w].at(-1)!)} ms`).join(', ')}`);
  }
  return report;
}

/** Throughput in MB/s of the median run. */
const throughput = (r: VideoUploadReport, way: Way) => r.bytes / MB / (median(r.ms[way]) / 1000);

export function videoUploadTargets(r: VideoUploadReport): Target[] {
  const file = throughput(r, 'file API PUT');
  return WAYS.slice(1).map((way) => {
    const ratio = throughput(r, way) / file;
    return { target: `${way}: throughput >= 0.8x the file API's PUT of the same bytes`, measured: `${ratio.toFixed(3)}x`, met: ratio >= 0.8 };
  });
}

export function renderVideoUpload(r: VideoUploadReport): string {
  const file = throughput(r, 'file API PUT');
  const rows = WAYS.map((way) => [
    way,
    String(Math.round(median(r.ms[way]))),
    String(Math.round(Math.min(...r.ms[way]))),
    String(Math.round(Math.max(...r.ms[way]))),
    throughput(r, way).toFixed(0),
    (throughput(r, way) / file).toFixed(3),
  ]);
  return [
    `Video upload: ${r.bytes / MB} MB of random bytes over 127.0.0.1, one at a time (${r.runs} runs, the four alternating)`,
    table(['', 'median ms', 'min ms', 'max ms', 'MB/s', 'x file PUT'], rows),
    ...videoUploadTargets(r).map((t) => `Target: ${t.target}: ${t.measured}, met: ${t.met ? 'yes' : 'NO'}`),
  ].join('\n');
}
