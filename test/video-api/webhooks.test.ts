/**
 * A library's webhook fed by its videos' status changes: set through the management API, it
 * receives the upload's Queued, the encoding's Processing and, for a file that is no video, Failed, signed with the library's read-only key.
 */
import { createHmac } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WEBHOOK_STATUS } from '../../src/domain/videos/webhooks.js';
import { type WebhookReceiver, startWebhookReceiver } from '../helpers/webhook-receiver.js';
import { within } from '../helpers/within.js';
import { useVideoEnv } from './helpers.js';

const TOKEN = 'operator-token-0123456789';
const env = useVideoEnv({ adminToken: TOKEN });
let receiver: WebhookReceiver;

beforeEach(async () => {
  receiver = await startWebhookReceiver();
  expect((await env.t.post(`/videolibrary/${env.library.Id}`, { WebhookUrl: receiver.url })).status).toBe(200);
});
afterEach(async () => {
  await receiver.close();
});

describe("a video library's webhook", () => {
  it('is sent for each status change of a video, signed with the read-only key, and listed with its outcome', async () => {
    const created = await env.call('POST', `/library/${env.library.Id}/videos`, { title: 'clip' });
    const guid = created.body.guid as string;
    expect((await env.call('PUT', `/library/${env.library.Id}/videos/${guid}`, Buffer.alloc(4096, 1))).status).toBe(200);
    // The announcements are queued off the status change's path: run the jobs until all went out
    // (the encode job starts ffprobe: seconds on a loaded machine).
    await within(15_000, async () => {
      await env.t.runJobs();
      return receiver.received.length >= 3;
    });
    const bodies = receiver.received.map((r) => JSON.parse(r.body));
    expect(bodies).toEqual([
      { VideoLibraryId: env.library.Id, VideoGuid: guid, Status: WEBHOOK_STATUS.Queued },
      { VideoLibraryId: env.library.Id, VideoGuid: guid, Status: WEBHOOK_STATUS.Processing },
      { VideoLibraryId: env.library.Id, VideoGuid: guid, Status: WEBHOOK_STATUS.Failed },
    ]);
    for (const { headers, body } of receiver.received) {
      expect(headers['x-bunnystream-signature']).toBe(createHmac('sha256', env.library.ReadOnlyApiKey).update(body).digest('hex'));
    }
    // The operator lists them, with each attempt.
    const url = `/_edgeplane/videolibraries/${env.library.Id}/webhooks`;
    const listed = await env.t.request('GET', url, undefined, null, { authorization: `Bearer ${TOKEN}` });
    expect(listed.status).toBe(200);
    expect(listed.body.TotalItems).toBe(3);
    expect(listed.body.Items.map((d: { Status: number; State: string }) => [d.Status, d.State])).toEqual([
      [WEBHOOK_STATUS.Failed, 'Sent'],
      [WEBHOOK_STATUS.Processing, 'Sent'],
      [WEBHOOK_STATUS.Queued, 'Sent'],
    ]);
    expect(listed.body.Items[0].Attempts[0]).toMatchObject({ status: 200, ok: true });
    expect((await env.t.request('GET', url, undefined, null, {})).status).toBe(401);
    expect((await env.t.request('GET', '/_edgeplane/videolibraries/999999/webhooks', undefined, null, { authorization: `Bearer ${TOKEN}` })).status).toBe(404);
  });
});
