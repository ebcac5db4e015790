/**
 * An encode survives its server being killed: the server process is killed with SIGKILL while it
 * encodes a video; started again on the same store and files, it takes the job up once the lease
 * runs out and the video reaches Finished — encoded once to the end, with no working directory of
 * the dead process left behind.
 */
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findMediaTools } from '../../src/media/binaries.js';
import { VideoStatus } from '../../src/schemas/video.js';
import { useCrashWorkspace } from '../helpers/crash-workspace.js';
import { startServer } from '../helpers/server-process.js';
import { within } from '../helpers/within.js';
import { makeClip } from '../media/clips.js';

const KEY = 'encode-restart-key-0123456789';
const workspace = useCrashWorkspace('encode-restart', KEY);

describe('an encode interrupted by SIGKILL', () => {
  it('is taken up again after a restart and finishes, leaving no working directory of the killed process', async () => {
    const tools = await findMediaTools({});
    // Long enough to be caught mid-encode (a few seconds of ffmpeg), small enough to redo quickly.
    const clip = readFileSync(makeClip(tools, join(workspace.dir, 'clip.mp4'), { width: 640, height: 360, seconds: 5 }));
    // A short lease: a killed instance's job is taken up 2 s after its last renewal.
    const env = { ...workspace.env, EDGEPLANE_JOB_LEASE_MS: '2000' };
    const first = await startServer(env);
    const library = (await (
      await fetch(`${first.base}/videolibrary`, { method: 'POST', headers: { AccessKey: KEY, 'content-type': 'application/json' }, body: '{"Name":"restart"}' })
    ).json()) as { Id: number; ApiKey: string };
    const settings = await fetch(`${first.base}/videolibrary/${library.Id}`, {
      method: 'POST',
      headers: { AccessKey: KEY, 'content-type': 'application/json' },
      body: '{"EnabledResolutions":"240p,360p"}',
    });
    expect(settings.status).toBe(200);
    const api = (server: typeof first, path: string, init: RequestInit = {}) =>
      fetch(`${server.planes['video']}/library/${library.Id}${path}`, { ...init, headers: { AccessKey: library.ApiKey, 'content-type': 'application/json' } });
    const guid = ((await (await api(first, '/videos', { method: 'POST', body: '{"title":"long"}' })).json()) as { guid: string }).guid;
    expect((await api(first, `/videos/${guid}`, { method: 'PUT', body: clip })).status).toBe(200);
    const statusOn = async (server: typeof first) => (await (await api(server, `/videos/${guid}`)).json()) as { status: number; encodeProgress: number };

    // Killed mid-encode: once ffmpeg is at work on it.
    await within(20_000, async () => (await statusOn(first)).status === VideoStatus.Transcoding);
    const deadRoot = join(tmpdir(), `edgeplane-encode-${first.child.pid}`);
    expect(existsSync(deadRoot)).toBe(true);
    await first.stop('SIGKILL');

    const second = await startServer(env);
    try {
      // Killed before the end: the encode is still to finish.
      expect((await statusOn(second)).status).not.toBe(VideoStatus.Finished);
      await within(60_000, async () => (await statusOn(second)).status === VideoStatus.Finished);
      const video = (await (await api(second, `/videos/${guid}`)).json()) as { availableResolutions: string; encodeProgress: number };
      expect(video.availableResolutions.split(',').sort()).toEqual(['240p', '360p']);
      expect(video.encodeProgress).toBe(100);
      expect(existsSync(deadRoot)).toBe(false);
    } finally {
      await second.stop();
    }
  }, 120_000);
});
