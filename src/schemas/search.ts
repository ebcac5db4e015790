/** `GET /search`: the account's resources found by name or host name. */
import { Type, type Static } from 'typebox';
import { Int32, Int64, Nullable } from './common.js';

export const SEARCH_TYPES = ['cdn', 'storage', 'dns', 'stream', 'containers'] as const;

export const SearchQuery = Type.Object({
  search: Type.Optional(
    Type.String({ maxLength: 255, description: 'Text to look for, in any letter case, inside names and host names. Absent or empty: every resource.' }),
  ),
  from: Type.Optional(Int32({ minimum: 0, maximum: 2147483647, default: 0, description: 'Results to skip.' })),
  size: Type.Optional(Int32({ minimum: 1, maximum: 1000, default: 20, description: 'Results to return.' })),
});
export type SearchQueryT = Static<typeof SearchQuery>;

export const SearchResultItem = Type.Object(
  {
    Type: Nullable(Type.String(), {
      description:
        'What was found: `cdn` (pull zone), `storage` (storage zone), `dns` (DNS zone), `stream` (video library), `containers` (container application).',
    }),
    Id: Int64({ description: 'Its id; 0 for a container application, whose id is a string (see `AppId`).' }),
    Name: Nullable(Type.String(), { description: 'Its name (a DNS zone: its domain).' }),
    AppId: Nullable(Type.String(), { description: 'edgeplane extension: the id of a container application; null for the others.' }),
  },
  { additionalProperties: false },
);
export type SearchResultItemT = Static<typeof SearchResultItem>;

export const SearchResults = Type.Object(
  {
    Query: Nullable(Type.String(), { description: 'The text searched for.' }),
    Total: Int32({ description: 'Results found, over all pages.' }),
    From: Int32({ description: 'Results skipped.' }),
    Size: Int32({ description: 'Results asked for.' }),
    SearchResults: Nullable(Type.Array(SearchResultItem), {
      description: 'The results: pull zones, storage zones, DNS zones, video libraries, then container applications, each oldest first.',
    }),
  },
  { additionalProperties: false },
);
export type SearchResultsT = Static<typeof SearchResults>;
