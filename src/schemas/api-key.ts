import { Type } from 'typebox';
import { Int32, Int64, Nullable } from './common.js';

/** What a key may do: everything, or reading only. */
export const ROLES = ['FullAccess', 'ReadOnly'] as const;
export type Role = (typeof ROLES)[number];

export const ApiKey = Type.Object({
  Id: Int64({ description: 'Identifier of the key.' }),
  Key: Nullable(Type.String(), {
    description:
      'The key value, sent in the `AccessKey` header. A credential: keep it secret. Null in a list read with a read-only key for keys that can write, so a read-only key never leads to one that can.',
  }),
  Roles: Type.Array(Type.String(), { description: 'What the key may do: `FullAccess` or `ReadOnly`.' }),
});

export const ApiKeyPage = Type.Object({
  Items: Nullable(Type.Array(ApiKey), { description: 'The keys on this page.' }),
  CurrentPage: Int32({ description: 'The page number returned.' }),
  TotalItems: Int32({ description: 'Number of keys of the account, over all pages.' }),
  HasMoreItems: Type.Boolean({ description: 'True when pages after this one hold more keys.' }),
});

export const ApiKeyListQuery = Type.Object({
  page: Int32({ minimum: 1, maximum: 2147483647, default: 1, description: 'Page number, starting at 1.' }),
  perPage: Int32({ minimum: 5, maximum: 1000, default: 1000, description: 'Keys per page.' }),
});

export const ApiKeyCreateRequest = Type.Object(
  {
    Roles: Type.Optional(
      Type.Array(Type.Unsafe<(typeof ROLES)[number]>({ type: 'string', enum: [...ROLES] }), {
        maxItems: ROLES.length,
        uniqueItems: true,
        description: 'Roles of the new key; `["FullAccess"]` when omitted or empty.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const ApiKeyIdParams = Type.Object({ id: Int64({ minimum: 1, description: 'Identifier of the key.' }) });
