/**
 * Sends a video library's webhooks (webhooks.ts) as stored jobs, one per attempt, and keeps every
 * delivery with its attempts for the operator to list. `notify` only enqueues: whoever changes a
 * video's status never waits for a receiver.
 */
import { randomUUID } from 'node:crypto';
import type { JobRunner } from '../../jobs/runner.js';
import type { WebhookDeliveryT } from '../../schemas/video-webhooks.js';
import type { Store, StoreTx } from '../../store/types.js';
import type { Clock } from '../principal.js';
import { postWebhook, type ReceiverAddresses, RETRY_DELAYS_MS, signatureHeaders, type WebhookEvent, webhookBody } from './webhooks.js';

export const WEBHOOK_JOB = 'video.webhook';

/** Where a library's webhooks go, and the key that signs them; none when the library is gone. */
export interface WebhookTarget {
  accountId: number;
  /** The library's `WebhookUrl`; nothing is sent while it is empty. */
  url: string | null;
  readOnlyApiKey: string;
}

export type WebhookDelivery = WebhookDeliveryT;

interface JobPayload {
  deliveryId: string;
  event: WebhookEvent;
}

export interface WebhookDeliveriesDeps {
  store: Store;
  jobs: JobRunner;
  clock: Clock;
  targetOf(libraryId: number): Promise<WebhookTarget | undefined>;
  /** Where receivers may be: as origins may (the edge's OriginAddresses). */
  addresses: ReceiverAddresses;
}

export class WebhookDeliveries {
  /** The announcements being queued, one after the other: their jobs are queued in the order of the events. */
  private queued: Promise<void> = Promise.resolve();

  constructor(private readonly deps: WebhookDeliveriesDeps) {
    deps.jobs.register(WEBHOOK_JOB, (payload) => this.attempt(payload as JobPayload));
  }

  /** Queues the event for the library's receiver, if it has one, after the events notified before it. */
  notify(event: WebhookEvent): Promise<void> {
    const queued = this.queued.then(() => this.queue(event));
    this.queued = queued.catch(() => undefined);
    return queued;
  }

  private async queue(event: WebhookEvent): Promise<void> {
    const target = await this.deps.targetOf(event.libraryId);
    if (!target?.url) return;
    const delivery: WebhookDelivery = {
      Id: randomUUID(),
      VideoLibraryId: event.libraryId,
      VideoGuid: event.videoGuid,
      Status: event.status,
      Url: target.url,
      State: 'Retrying',
      Attempts: [],
    };
    await this.deps.store.docs.insert('videoWebhookDelivery', {
      id: delivery.Id,
      accountId: target.accountId,
      parentId: String(event.libraryId),
      doc: delivery,
    });
    await this.deps.jobs.enqueue(WEBHOOK_JOB, { deliveryId: delivery.Id, event } satisfies JobPayload);
  }

  /** A library's deliveries, newest first. */
  async list(accountId: number, libraryId: number, offset = 0, limit = 100): Promise<{ items: WebhookDelivery[]; total: number }> {
    const page = await this.deps.store.docs.list<WebhookDelivery>('videoWebhookDelivery', accountId, {
      offset: 0,
      limit: 100_000,
      parentId: String(libraryId),
    });
    const items = page.items.map((d) => d.doc).reverse();
    return { items: items.slice(offset, offset + limit), total: page.total };
  }

  /** A library's deliveries, whatever its account (the operator's view); none for an unknown library. */
  async ofLibrary(libraryId: number, offset: number, limit: number): Promise<{ items: WebhookDelivery[]; total: number } | undefined> {
    const target = await this.deps.targetOf(libraryId);
    return target && this.list(target.accountId, libraryId, offset, limit);
  }

  /** Removes a library's deliveries (with the library: cascades.ts). */
  async removeAll(tx: StoreTx, accountId: number, libraryId: number): Promise<void> {
    const page = await tx.docs.list('videoWebhookDelivery', accountId, { offset: 0, limit: 1_000_000, parentId: String(libraryId) });
    for (const delivery of page.items) await tx.docs.delete('videoWebhookDelivery', accountId, delivery.id);
  }

  private async attempt({ deliveryId, event }: JobPayload): Promise<void> {
    const target = await this.deps.targetOf(event.libraryId);
    const stored = await this.deps.store.docs.getAnyAccount<WebhookDelivery>('videoWebhookDelivery', deliveryId);
    // The library (and with it its deliveries) is gone, or its receiver was removed: nothing to send.
    if (!target || !stored || !target.url) return;
    const body = webhookBody(event);
    const outcome = await postWebhook(target.url, body, signatureHeaders(body, target.readOnlyApiKey), this.deps.addresses);
    const delivery = stored.doc;
    delivery.Url = target.url;
    delivery.Attempts.push({ ...outcome, At: this.deps.clock().toISOString() });
    const delay = RETRY_DELAYS_MS[delivery.Attempts.length - 1];
    delivery.State = outcome.ok ? 'Sent' : delay === undefined ? 'FailedForGood' : 'Retrying';
    await this.deps.store.docs.update('videoWebhookDelivery', stored.accountId, {
      id: deliveryId,
      version: stored.version,
      parentId: stored.doc.VideoLibraryId.toString(),
      doc: delivery,
    });
    if (delivery.State === 'Retrying' && delay !== undefined) await this.deps.jobs.enqueue(WEBHOOK_JOB, { deliveryId, event } satisfies JobPayload, delay);
  }
}
