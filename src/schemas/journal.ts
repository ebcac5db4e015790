/** The operator's request journal (an edgeplane extension): `GET /_edgeplane/journal`. */
import { Type, type Static } from 'typebox';
import { DateTime, Int64, Nullable } from './common.js';

export const JournalEntry = Type.Object({
  time: DateTime({ description: 'When the request arrived.' }),
  requestId: Type.String({ description: 'Request id, as in the `X-Request-Id` header and the logs.' }),
  method: Type.String({ description: 'HTTP method.' }),
  path: Type.String({ description: 'Request path, without the query string.' }),
  route: Nullable(Type.String(), { description: 'Route pattern that served it (`/pullzone/:id`); null when no route matched.' }),
  status: Type.Integer({ description: 'HTTP status answered.' }),
  accountId: Nullable(Int64(), { description: 'Account of the API key used; null when the request was not authenticated.' }),
  durationMs: Type.Number({ description: 'Time to answer, in milliseconds.' }),
  headers: Type.Record(Type.String(), Type.Unknown(), { description: 'Request headers; credentials (AccessKey, Authorization, Cookie) redacted.' }),
  body: Type.Unknown({ description: 'Request body as sent, with every credential field redacted at any depth; null when there was none.' }),
});
export type JournalEntryT = Static<typeof JournalEntry>;

export const JournalQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, description: 'Most entries to return; all when left out.' })),
  method: Type.Optional(Type.String({ maxLength: 16, description: 'Only requests with this method, any case.' })),
  path: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 1000,
      description: 'Only requests this path pattern names: a route pattern (`/pullzone/:id`), a concrete path, or a glob (`/pullzone/*`).',
    }),
  ),
});

export const JournalPage = Type.Object({
  capacity: Type.Integer({ description: 'How many requests the journal keeps (`EDGEPLANE_JOURNAL_SIZE`); 0 when it is off.' }),
  entries: Type.Array(JournalEntry, { description: 'Matching requests, newest first.' }),
});
