/** Pieces of S3's answers that several operations write alike: a time, the Owner element. */
import type { S3Call } from './types.js';
import { element } from './xml.js';

export const isoTime = (iso: string) => new Date(iso).toISOString();

/** The zone's owner, as `<Owner>` (or `<Initiator>`) names it. */
export function owner(zone: S3Call['zone'], name = 'Owner'): string {
  return element(name, [element('ID', zone.userId), element('DisplayName', zone.zoneName)]);
}
