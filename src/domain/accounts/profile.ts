/**
 * What the platform's user record holds that an edgeplane account does not (an account has an id,
 * a name, funds and a creation date): derived from those, the same every time, so nothing more
 * needs storing. See README, "Decisions".
 */
import type { Account } from '../../store/types.js';
import { userIdOf } from '../principal.js';

export interface Profile {
  userId: string;
  email: string;
  firstName: string;
  lastName: string;
}

/** `Ada Lovelace` → `ada-lovelace`; what is left of a name with no letter or digit is `account`. */
function localPart(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48);
  return slug === '' ? 'account' : slug;
}

/**
 * The email is `<name>-<id>@<cdn domain>`: the id keeps two accounts of the same name apart, and
 * the CDN domain (EDGEPLANE_CDN_DOMAIN, `edgeplane.test` by default) keeps it on a domain the
 * operator controls. The name splits at its first blank into first and last name.
 */
export function profileOf(account: Account, cdnDomain: string): Profile {
  const name = account.name.trim();
  const blank = name.search(/\s/);
  return {
    userId: userIdOf(account.id),
    email: `${localPart(name)}-${account.id}@${cdnDomain}`,
    firstName: blank < 0 ? name : name.slice(0, blank),
    lastName: blank < 0 ? '' : name.slice(blank).trim(),
  };
}
