/** A video library's webhook deliveries, as the operator lists them (src/domain/videos/webhook-deliveries.ts). */
import { type Static, Type } from 'typebox';
import { Int32, Int64 } from './common.js';

export const WebhookAttempt = Type.Object(
  {
    status: Int32({ description: "The receiver's HTTP status; 0 when none came (refused address, connection failure, timeout)." }),
    ok: Type.Boolean({ description: 'True for a 2xx answer.' }),
    detail: Type.String({ description: 'Why the attempt failed, or the start of the answer (512 bytes at most).' }),
    durationMs: Int32({ description: 'How long the attempt took, in milliseconds.' }),
    At: Type.String({ format: 'date-time', description: 'When it was made.' }),
  },
  { additionalProperties: false },
);

export const WebhookDelivery = Type.Object(
  {
    Id: Type.String({ description: 'Identifier of the delivery.' }),
    VideoLibraryId: Int64({ description: 'The library.' }),
    VideoGuid: Type.String({ description: 'The video.' }),
    Status: Int32({ description: "The webhook's status sent (0 Queued … 5 Failed)." }),
    Url: Type.String({ description: 'Where it was sent.' }),
    State: Type.Union([Type.Literal('Sent'), Type.Literal('Retrying'), Type.Literal('FailedForGood')], {
      description: 'Sent; Retrying (another attempt is due); FailedForGood (every attempt failed).',
    }),
    Attempts: Type.Array(WebhookAttempt, { description: 'Every attempt, oldest first.' }),
  },
  { additionalProperties: false, description: 'One webhook of a video library and how its delivery went.' },
);
export type WebhookDeliveryT = Static<typeof WebhookDelivery>;

export const WebhookDeliveryPage = Type.Object(
  {
    Items: Type.Array(WebhookDelivery, { description: 'Deliveries, newest first.' }),
    TotalItems: Int64({ description: 'How many the library has.' }),
  },
  { additionalProperties: false },
);
