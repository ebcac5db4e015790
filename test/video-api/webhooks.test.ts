/**
 * A library's webhook fed by its videos' status changes: set through the management API, it
 * receives the upload's Queued, and a failure's Failed, signed with the library's read-only key.
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WEBHOOK_STATUS } from '../../src/domain/videos/webhooks.js';
import { within } from '../helpers/within.js';
import { useVideoEnv } from './helpers.js';

const env = useVideoEnv();
let receiver: Server;
let received: { headers: IncomingHttpHeaders; body: string }[];

beforeEach(async () => {
  received = [];
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  expect((await env.t.post(`/videolibrary/${env.library.Id}`, { WebhookUrl: url })).status).toBe(200);
});
afterEach(async () => {
  await new Promise((resolve) => receiver.close(resolve));
});

describe("a video library's webhook", () => {
  it('is sent for each status change of a video, signed with the read-only key, and listed with its outcome', async () => {
    const created = await env.call('POST', `/library/${env.library.Id}/videos`, { title: 'clip' });
    const guid = created.body.guid as string;
    expect((await env.call('PUT', `/library/${env.library.Id}/videos/${guid}`, Buffer.alloc(4096, 1))).status).toBe(200);
    await env.t.app.services.videos.recordProgress(env.library.Id, guid, { status: 5, message: { level: 2, issueCode: 0, message: 'unreadable' } } as never);
    // The announcements are queued off the status change's path: run the jobs until both went out.
    await within(3000, async () => {
      await env.t.runJobs();
      return received.length >= 2;
    });
    const bodies = received.map((r) => JSON.parse(r.body));
    expect(bodies).toEqual([
      { VideoLibraryId: env.library.Id, VideoGuid: guid, Status: WEBHOOK_STATUS.Queued },
      { VideoLibraryId: env.library.Id, VideoGuid: guid, Status: WEBHOOK_STATUS.Failed },
    ]);
    for (const { headers, body } of received) {
      expect(headers['x-bunnystream-signature']).toBe(createHmac('sha256', env.library.ReadOnlyApiKey).update(body).digest('hex'));
    }
    const listed = await env.t.app.services.videoWebhooks.list(env.t.accountId, env.library.Id);
    expect(listed.items.map((d) => [d.Status, d.State])).toEqual([
      [WEBHOOK_STATUS.Failed, 'Sent'],
      [WEBHOOK_STATUS.Queued, 'Sent'],
    ]);
  });
});
