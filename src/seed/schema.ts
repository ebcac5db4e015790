/**
 * The seed file: a known starting state for tests, in the API's own shapes. Its outline is checked
 * here; each resource is then created through the API route that creates it, so it meets exactly
 * the rules a client's request would, and errors name their place in the file.
 */
import { Type, type Static } from 'typebox';
import { ROLES } from '../domain/principal.js';

const Resources = (what: string) =>
  Type.Optional(Type.Array(Type.Record(Type.String(), Type.Unknown()), { description: `${what}, each the body of the request that creates one.` }));

export const SeedAccount = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100, description: 'Account name; accounts are matched by name when the seed is applied again.' }),
    balance: Type.Optional(Type.Number({ description: 'Funds of the account.' })),
    apiKeys: Type.Optional(
      Type.Array(
        Type.Object(
          {
            key: Type.String({ minLength: 16, maxLength: 256, description: 'The key value, so tests can use a known key.' }),
            roles: Type.Optional(Type.Array(Type.Unsafe<string>({ type: 'string', enum: [...ROLES] }), { uniqueItems: true })),
          },
          { additionalProperties: false },
        ),
      ),
    ),
    storageZones: Resources('Storage zones (POST /storagezone)'),
    pullZones: Resources('Pull zones (POST /pullzone); `StorageZoneName` may name a storage zone of this seed instead of `StorageZoneId`'),
    dnsZones: Resources('DNS zones (POST /dnszone), `Records` included'),
    videoLibraries: Resources('Video libraries (POST /videolibrary)'),
    containerApps: Resources('Container applications (POST /mc/apps)'),
  },
  { additionalProperties: false },
);

export const Seed = Type.Object({ accounts: Type.Array(SeedAccount, { description: 'The accounts to create, in order.' }) }, { additionalProperties: false });

export type SeedT = Static<typeof Seed>;
export type SeedAccountT = Static<typeof SeedAccount>;
