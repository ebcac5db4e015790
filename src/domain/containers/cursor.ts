/**
 * The paging cursors of the container API's lists: the position after the last item returned,
 * sealed (authenticated encryption) together with the account and the list it belongs to. Clients
 * cannot read or forge one, a cursor of another account or list is refused, and anything that
 * fails to open is a 400 naming `nextCursor` rather than a surprise further down.
 */
import type { Secrets } from '../../security/secrets.js';
import { errors } from '../errors.js';

/** The lists a cursor may belong to. */
export type CursorList = 'containerApps' | 'nodes' | 'regions';

export function encodeCursor(secrets: Secrets, accountId: number, offset: number, list: CursorList = 'containerApps'): string {
  return secrets.seal(`${list}:${accountId}:${offset}`);
}

/** The offset a cursor points at. */
export function decodeCursor(secrets: Secrets, accountId: number, cursor: string, list: CursorList = 'containerApps'): number {
  let plain: string | undefined;
  try {
    plain = secrets.open(cursor);
  } catch {
    plain = undefined;
  }
  const match = plain?.match(/^([A-Za-z]+):(\d+):(\d{1,15})$/);
  if (!match || match[1] !== list || Number(match[2]) !== accountId) {
    throw errors.validation('nextCursor', 'The nextCursor is not a cursor returned by this list; start again without it.', 'cursor.invalid');
  }
  return Number(match[3]);
}

/** One page of `items` from a cursor, and the cursor of the next page (null on the last). */
export function cursorPage<T>(
  secrets: Secrets,
  accountId: number,
  list: CursorList,
  items: readonly T[],
  query: { limit: number; nextCursor?: string | undefined },
): { items: T[]; meta: { totalItems: number }; cursor: string | null } {
  const offset = query.nextCursor ? decodeCursor(secrets, accountId, query.nextCursor, list) : 0;
  const page = items.slice(offset, offset + query.limit);
  const end = offset + page.length;
  return {
    items: page,
    meta: { totalItems: items.length },
    cursor: page.length > 0 && end < items.length ? encodeCursor(secrets, accountId, end, list) : null,
  };
}
