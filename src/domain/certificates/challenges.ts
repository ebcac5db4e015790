/**
 * Pending certificate challenges of pull zone hostnames, kept in the store so that the instance
 * asked to complete one, and the edge instance that answers it, need not be the one that
 * published it. One challenge per hostname and kind; asking again replaces it. A challenge is
 * never deleted but with its zone: completing it marks it done, so each document's version only
 * grows, and every instance's in-memory copy can tell an older read from a newer one.
 */
import { randomBytes } from 'node:crypto';
import type { Secrets } from '../../security/secrets.js';
import { DocumentRepo } from '../documents.js';

/** How long a published challenge can be completed; after that it must be asked for again. */
export const CHALLENGE_TTL_MS = 24 * 60 * 60 * 1000;

export type ChallengeKind = 'dns' | 'http';

export interface PendingChallenge {
  Kind: ChallengeKind;
  Hostname: string;
  HostnameId: number;
  PullZoneId: number;
  /** HTTP: the last segment of the challenge's path. DNS: unused (the value is the proof). */
  Token: string;
  /** What must be found: the TXT value (DNS) or the file's body (HTTP). */
  Value: string;
  ExpiresAt: string;
  Completed: boolean;
  /** DNS: the TXT record edgeplane published in the account's own DNS zone, removed on completion. */
  Published: { DnsZoneId: number; RecordId: number } | null;
}

export const challengeId = (kind: ChallengeKind, hostnameId: number) => `${kind}:${hostnameId}`;

export const challengeRepo = (secrets: Secrets) =>
  new DocumentRepo<PendingChallenge>('certificateChallenge', 'certificate challenge', secrets, [], (c) => ({
    name: `${c.Kind}:${c.Hostname}`,
    // Listed by zone, so the zone's deletion takes its challenges along.
    parentId: String(c.PullZoneId),
  }));

/** 32 random bytes, Base64Url: the size of an ACME token (RFC 8555 §8.3). */
export const randomToken = () => randomBytes(32).toString('base64url');

export const isOpen = (c: PendingChallenge, now: Date) => !c.Completed && Date.parse(c.ExpiresAt) > now.getTime();
