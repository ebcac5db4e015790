/**
 * The HTTP challenges the edge answers, from memory: every open HTTP challenge of the store, kept
 * equal to it as ServedZones keeps the DNS plane's zones — loaded at start, changed on commit for
 * this process's writes, and read again when the change feed reports another process's. Each
 * challenge's version orders the updates, so an older read never replaces a newer one.
 */
import type { Store } from '../../store/types.js';
import type { DocumentRepo } from '../documents.js';
import type { HttpChallenges } from '../edge/types.js';
import type { Clock } from '../principal.js';
import { isOpen, type PendingChallenge } from './challenges.js';

export const CHALLENGE_PATH = '/.well-known/acme-challenge/';
const PAGE = 500;

interface Held {
  version: number;
  challenge: PendingChallenge | undefined;
}

export class HttpChallengeBoard implements HttpChallenges {
  /** By document id (`http:<hostname id>`). */
  private readonly byId = new Map<string, Held>();
  /** Open HTTP challenges by hostname. */
  private readonly byHost = new Map<string, PendingChallenge>();
  private starting: Promise<void> | undefined;

  constructor(
    private readonly store: Store,
    private readonly repo: DocumentRepo<PendingChallenge>,
    private readonly clock: Clock,
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  /** Loads every challenge and follows the change feed from then on (once, however often called). */
  start(): Promise<void> {
    this.starting ??= (async () => {
      this.store.changes.subscribe((change) => {
        if (change.type === 'all') void this.reloadAll().catch(this.onError);
        else if (change.type === 'doc' && change.kind === 'certificateChallenge') void this.reload(change.id).catch(this.onError);
      });
      await this.reloadAll();
    })();
    return this.starting;
  }

  answer(host: string, path: string): string | undefined {
    if (!path.startsWith(CHALLENGE_PATH)) return undefined;
    const challenge = this.byHost.get(host.toLowerCase());
    if (!challenge || challenge.Token !== path.slice(CHALLENGE_PATH.length) || !isOpen(challenge, this.clock())) return undefined;
    return challenge.Value;
  }

  /**
   * A challenge as committed by this process: the newest state of it, unless a newer version is
   * held. A challenge a read found gone (an infinite version: see reload) gives way to it: the id
   * is in use again (its hostname's id drawn anew after the store was emptied), and this commit
   * came after that read.
   */
  committed(id: string, version: number, challenge: PendingChallenge | undefined): void {
    const held = this.byId.get(id);
    if (held && held.version > version && held.challenge !== undefined) return;
    this.hold(id, version, challenge);
  }

  /** A challenge as read from the store: never older than what is held. */
  private read(id: string, version: number, challenge: PendingChallenge | undefined): void {
    const held = this.byId.get(id);
    if (held && held.version > version) return;
    this.hold(id, version, challenge);
  }

  private hold(id: string, version: number, challenge: PendingChallenge | undefined): void {
    const held = this.byId.get(id);
    if (held?.challenge) this.byHost.delete(held.challenge.Hostname);
    this.byId.set(id, { version, challenge });
    if (challenge?.Kind === 'http' && !challenge.Completed) this.byHost.set(challenge.Hostname, challenge);
  }

  private async reload(id: string): Promise<void> {
    const found = await this.repo.findAnyAccount(this.store, id);
    // Gone with its zone: no later read may bring it back (a read that began before the delete).
    this.read(id, found?.version ?? Number.POSITIVE_INFINITY, found?.doc);
  }

  private async reloadAll(): Promise<void> {
    this.byId.clear();
    this.byHost.clear();
    for (let offset = 0; ; offset += PAGE) {
      const page = await this.repo.scan(this.store, offset, PAGE);
      for (const doc of page) this.read(doc.id, doc.version, doc.doc);
      if (page.length < PAGE) break;
    }
  }
}
