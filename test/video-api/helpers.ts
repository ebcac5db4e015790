/**
 * A video library ready for the video API: a test app (createTestApp), a library created through
 * the management API, and the video plane built over the same services, driven with inject (or
 * listening on a loopback port when a test needs a real socket).
 */
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterEach, beforeEach } from 'vitest';
import type { Config } from '../../src/config.js';
import { buildVideoApp } from '../../src/planes/video/app.js';
import { createTestApp, type TestContext, type TestResponse } from '../helpers/app.js';

export interface Library {
  Id: number;
  ApiKey: string;
  ReadOnlyApiKey: string;
  StorageZoneId: number;
  PullZoneId: number;
}

export interface VideoEnv {
  t: TestContext;
  plane: FastifyInstance;
  library: Library;
  /** A request to the video plane with the library's ApiKey (or `key`; null sends none). */
  call<T = any>(method: InjectOptions['method'], url: string, body?: unknown, key?: string | null): Promise<TestResponse<T>>;
  createLibrary(name?: string, key?: string): Promise<Library>;
}

export function useVideoEnv(overrides: Partial<Config> = {}): VideoEnv {
  const env = {} as VideoEnv;
  env.createLibrary = async (name = 'Library', key?: string) => {
    const res = await env.t.post('/videolibrary', { Name: name }, key);
    if (res.status !== 201 && res.status !== 200) throw new Error(`library create: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Library;
  };
  env.call = async (method, url, body, key) => {
    const headers: Record<string, string> = {};
    const useKey = key === undefined ? env.library.ApiKey : key;
    if (useKey !== null) headers['accesskey'] = useKey;
    const opts: InjectOptions = { method, url, headers };
    if (body !== undefined) {
      opts.payload = typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
      headers['content-type'] = Buffer.isBuffer(body) ? 'application/octet-stream' : 'application/json';
    }
    const res = await env.plane.inject(opts);
    const parsed = res.body.length > 0 && String(res.headers['content-type'] ?? '').includes('json') ? JSON.parse(res.body) : res.body;
    return { status: res.statusCode, body: parsed, headers: res.headers };
  };
  beforeEach(async () => {
    env.t = await createTestApp(overrides);
    env.plane = await buildVideoApp({ services: env.t.app.services, config: env.t.config });
    env.library = await env.createLibrary();
  });
  afterEach(async () => {
    await env.plane.close();
    await env.t.close();
  });
  return env;
}

/** Creates a video and answers it. */
export async function createVideo(env: VideoEnv, title: string, extra: Record<string, unknown> = {}): Promise<{ guid: string; [k: string]: unknown }> {
  const res = await env.call('POST', `/library/${env.library.Id}/videos`, { title, ...extra });
  if (res.status !== 200) throw new Error(`video create: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}
