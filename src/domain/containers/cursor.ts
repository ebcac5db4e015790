/**
 * The paging cursor of the application list: the position after the last item returned, sealed
 * (authenticated encryption) together with the account and the list it belongs to. Clients cannot
 * read or forge it, a cursor of another account or list is refused, and anything that fails to
 * open is a 400 naming `nextCursor` rather than a surprise further down.
 */
import type { Secrets } from '../../security/secrets.js';
import { errors } from '../errors.js';

const PURPOSE = 'containerApps';

export function encodeCursor(secrets: Secrets, accountId: number, offset: number): string {
  return secrets.seal(`${PURPOSE}:${accountId}:${offset}`);
}

/** The offset a cursor points at. */
export function decodeCursor(secrets: Secrets, accountId: number, cursor: string): number {
  let plain: string | undefined;
  try {
    plain = secrets.open(cursor);
  } catch {
    plain = undefined;
  }
  const match = plain?.match(/^([A-Za-z]+):(\d+):(\d{1,15})$/);
  if (!match || match[1] !== PURPOSE || Number(match[2]) !== accountId) {
    throw errors.validation('nextCursor', 'The nextCursor is not a cursor returned by this list; start again without it.', 'cursor.invalid');
  }
  return Number(match[3]);
}
