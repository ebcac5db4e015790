/**
 * Paging shared by the list operations. The platform's older lists answer a bare JSON array unless
 * a `page` is asked for, and then the same page object as the API key list; both shapes are
 * declared here once so every list documents and serializes them alike. The container API's lists
 * page by cursor instead.
 */
import { Type, type TSchema } from 'typebox';
import { Int32, Int64, Nullable } from './common.js';

/** The page object (spec 2.1) around items of any kind. */
export const Paged = <T extends TSchema>(item: T, what = 'items') =>
  Type.Object(
    {
      Items: Nullable(Type.Array(item), { description: `The ${what} on this page.` }),
      CurrentPage: Int32({ description: 'The page number returned.' }),
      TotalItems: Int32({ description: `Number of ${what} over all pages.` }),
      HasMoreItems: Type.Boolean({ description: 'True when pages after this one hold more items.' }),
    },
    { additionalProperties: false, description: `One page of ${what}.` },
  );

export interface PagedT<T> {
  Items: T[];
  CurrentPage: number;
  TotalItems: number;
  HasMoreItems: boolean;
}

/** Query of the lists that answer everything as an array by default (page 0) and pages on request. */
export const PageQuery = Type.Object({
  page: Int32({
    minimum: 0,
    maximum: 2147483647,
    default: 0,
    description: 'Page number, starting at 1; 0 (the default) answers every item as a plain array instead of a page object.',
  }),
  perPage: Int32({ minimum: 5, maximum: 1000, default: 1000, description: 'Items per page (ignored when page is 0).' }),
});

/** Query of the container API's cursor-paged lists, of `what` (applications, nodes …). */
export const cursorPageQuery = (what: string) =>
  Type.Object({
    limit: Int32({ minimum: 1, maximum: 1000, default: 20, description: `Most ${what} returned (1 to 1000, default 20).` }),
    nextCursor: Type.Optional(Type.String({ description: 'The `cursor` of the previous page; the first page when left out.' })),
  });

/** A cursor-paged list's `cursor`: where the next page of `what` starts. */
export const cursorField = (what: string) =>
  Nullable(Type.String(), { description: `Send as \`nextCursor\` to get the ${what} after these; null when there are none.` });

export const ListMeta = Type.Object(
  { totalItems: Int64({ minimum: 0, description: 'Number of items over all pages.' }) },
  { additionalProperties: false, description: 'Facts about the whole list.' },
);

/** One page of a cursor-paged list: its `items`, facts about the whole list, and its `cursor` (cursorField). */
export const CursorPage = <T extends TSchema, C extends TSchema>(items: T, cursor: C, description: string) =>
  Type.Object({ items, meta: ListMeta, cursor }, { additionalProperties: false, description });

const arrayOrPagedSchemas = new WeakSet<object>();

/** A bare array for page 0, else the page object: the two shapes a paged list can answer. */
export function ArrayOrPaged<T extends TSchema>(item: T, what = 'items') {
  const schema = Type.Union([Type.Array(item, { description: `Every ${what}, when no page was asked for.` }), Paged(item, what)], {
    description: `Every ${what} as an array (page 0), or one page of them (page 1 and up).`,
  });
  arrayOrPagedSchemas.add(schema);
  return schema;
}

/** Whether a schema was made by ArrayOrPaged (its serializer picks a shape by Array.isArray). */
export const isArrayOrPaged = (schema: unknown): boolean => typeof schema === 'object' && schema !== null && arrayOrPagedSchemas.has(schema);
