/**
 * A video library's webhooks against a real receiver on loopback: the platform's body and
 * signature (checked as a receiver written for the platform checks it), retries with their delays
 * on a failing receiver, every attempt kept, and the edge's address rules for where they may go.
 */
import { createHmac } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OriginAddresses } from '../../src/domain/edge/origin/addresses.js';
import { WebhookDeliveries, type WebhookTarget } from '../../src/domain/videos/webhook-deliveries.js';
import { RETRY_DELAYS_MS, WEBHOOK_STATUS } from '../../src/domain/videos/webhooks.js';
import { JobRunner } from '../../src/jobs/runner.js';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

const READ_ONLY_KEY = 'read-only-key-of-the-library';

let t: TestContext;
let jobs: JobRunner;
let receiver: WebhookReceiver;
let target: WebhookTarget | undefined;

beforeEach(async () => {
  t = await createTestApp();
  jobs = new JobRunner(t.store, t.clock.read);
  receiver = await startWebhookReceiver();
  target = { accountId: t.accountId, url: receiver.url, readOnlyApiKey: READ_ONLY_KEY };
});
afterEach(async () => {
  await receiver.close();
  await t.close();
});

function deliveries(privateAddresses: 'allow' | 'deny' = 'allow', ownPorts: number[] = []): WebhookDeliveries {
  const addresses = new OriginAddresses({ privateAddresses, listenHost: '127.0.0.1', ownPorts });
  return new WebhookDeliveries({ store: t.store, jobs, clock: t.clock.read, targetOf: async () => target, addresses });
}

/** What a receiver written for the platform computes to check a webhook. */
const expectedSignature = (body: string) => createHmac('sha256', READ_ONLY_KEY).update(body).digest('hex');

describe('video library webhooks', () => {
  it("post the platform's body, signed with the read-only key in the platform's three headers, in the order of the events", async () => {
    const webhooks = deliveries();
    for (const status of [WEBHOOK_STATUS.Queued, WEBHOOK_STATUS.Processing, WEBHOOK_STATUS.Encoding, WEBHOOK_STATUS.Finished]) {
      await webhooks.notify({ libraryId: 7, videoGuid: 'a1b2c3d4-0000-4000-8000-000000000001', status });
    }
    await jobs.runDue();
    expect(receiver.received.map((r) => JSON.parse(r.body))).toEqual(
      [0, 1, 2, 3].map((Status) => ({ VideoLibraryId: 7, VideoGuid: 'a1b2c3d4-0000-4000-8000-000000000001', Status })),
    );
    for (const { headers, body } of receiver.received) {
      expect(headers['content-type']).toBe('application/json');
      expect(headers['x-bunnystream-signature-version']).toBe('v1');
      expect(headers['x-bunnystream-signature-algorithm']).toBe('hmac-sha256');
      expect(headers['x-bunnystream-signature']).toBe(expectedSignature(body));
    }
    const listed = await webhooks.list(t.accountId, 7);
    expect(listed.total).toBe(4);
    expect(listed.items.every((d) => d.State === 'Sent' && d.Attempts.length === 1 && d.Attempts[0]!.status === 200)).toBe(true);
  });

  it('try a failing receiver again after each delay, keep every attempt, and give up after the last', async () => {
    const webhooks = deliveries();
    receiver.answers.push(500, 503);
    await webhooks.notify({ libraryId: 7, videoGuid: 'g', status: WEBHOOK_STATUS.Finished });
    await jobs.runDue();
    expect(receiver.received).toHaveLength(1);
    // Not before its delay.
    t.clock.advance(RETRY_DELAYS_MS[0] - 1);
    await jobs.runDue();
    expect(receiver.received).toHaveLength(1);
    t.clock.advance(1);
    await jobs.runDue();
    t.clock.advance(RETRY_DELAYS_MS[1]);
    await jobs.runDue();
    expect(receiver.received).toHaveLength(3);
    const [delivery] = (await webhooks.list(t.accountId, 7)).items;
    expect(delivery!.State).toBe('Sent');
    expect(delivery!.Attempts.map((a) => a.status)).toEqual([500, 503, 200]);
    expect(delivery!.Attempts[0]!.detail).toBe('thanks');

    receiver.answers.push(...new Array(10).fill(500));
    await webhooks.notify({ libraryId: 7, videoGuid: 'h', status: WEBHOOK_STATUS.Failed });
    for (const delay of [0, ...RETRY_DELAYS_MS, 10 * 3_600_000]) {
      t.clock.advance(delay);
      await jobs.runDue();
    }
    const failed = (await webhooks.list(t.accountId, 7)).items.find((d) => d.VideoGuid === 'h')!;
    expect(failed.State).toBe('FailedForGood');
    expect(failed.Attempts).toHaveLength(RETRY_DELAYS_MS.length + 1);
  });

  it('send nothing while the library has no WebhookUrl', async () => {
    target = { ...target!, url: null };
    const webhooks = deliveries();
    await webhooks.notify({ libraryId: 7, videoGuid: 'g', status: WEBHOOK_STATUS.Queued });
    await jobs.runDue();
    expect(receiver.received).toHaveLength(0);
    expect((await webhooks.list(t.accountId, 7)).total).toBe(0);
  });

  it("never reach edgeplane's own listeners, nor a private receiver when the operator denies private addresses", async () => {
    const port = receiver.port;
    // One after the other: each instance registers itself as the job's handler.
    for (const webhooks of [() => deliveries('allow', [port]), () => deliveries('deny')]) {
      await webhooks().notify({ libraryId: 7, videoGuid: 'g', status: WEBHOOK_STATUS.Queued });
      await jobs.runDue();
    }
    expect(receiver.received).toHaveLength(0);
    const attempts = (await deliveries().list(t.accountId, 7)).items.map((d) => d.Attempts[0]!);
    expect(attempts.map((a) => a.status)).toEqual([0, 0]);
    expect(attempts.map((a) => a.detail).sort()).toEqual([
      expect.stringContaining('a loopback or private address'),
      expect.stringContaining("edgeplane's own listener"),
    ]);
  });
});
