/**
 * Typed access to one kind of resource document for the domain services: account-scoped reads
 * that turn "missing" and "someone else's" into the same 404, credential fields sealed at rest,
 * and optimistic versions so concurrent read-modify-writes never lose an update.
 */
import { SealedFields } from '../security/sealed-fields.js';
import type { Secrets } from '../security/secrets.js';
import { NameTakenError, type ListQuery, type Page, type ResourceKind, type StoredDoc, type StoreTx } from '../store/types.js';
import { type AppError, errors } from './errors.js';

export interface Indexed {
  name?: string | null;
  parentId?: string | null;
  linkId?: string | null;
}

export class DocumentRepo<T> {
  private readonly sealed: SealedFields<T>;

  constructor(
    readonly kind: ResourceKind,
    /** How the resource is named in messages ("pull zone"). */
    readonly label: string,
    secrets: Secrets,
    credentialPaths: readonly string[],
    /** The indexed columns, always derived from the document so they can never disagree with it. */
    private readonly indexOf: (doc: T) => Indexed = () => ({}),
    /** The request field that carries the unique name, for the 400 that names it. */
    private readonly nameField = 'Name',
    /** The error for a taken name, when it is not the usual "The <label> name "x" is already taken." */
    private readonly takenError?: (name: string) => AppError,
  ) {
    this.sealed = new SealedFields<T>(secrets, credentialPaths);
  }

  /** A document read straight from the store (not through this repository), its credentials opened. */
  open(doc: T): T {
    return this.sealed.open(doc);
  }

  async find(tx: StoreTx, accountId: number, id: string | number): Promise<StoredDoc<T> | undefined> {
    const found = await tx.docs.get<T>(this.kind, accountId, String(id));
    if (found) this.sealed.open(found.doc);
    return found;
  }

  async get(tx: StoreTx, accountId: number, id: string | number): Promise<StoredDoc<T>> {
    const found = await this.find(tx, accountId, id);
    if (!found) throw errors.notFound(this.label);
    return found;
  }

  /** For the operator and background jobs only: finds a document whatever its account. */
  async findAnyAccount(tx: StoreTx, id: string | number): Promise<StoredDoc<T> | undefined> {
    const found = await tx.docs.getAnyAccount<T>(this.kind, String(id));
    if (found) this.sealed.open(found.doc);
    return found;
  }

  /** Every document of the kind, all accounts, a page at a time (for the data planes' views). */
  async scan(tx: StoreTx, offset: number, limit: number): Promise<StoredDoc<T>[]> {
    const found = await tx.docs.scan<T>(this.kind, offset, limit);
    for (const d of found) this.sealed.open(d.doc);
    return found;
  }

  async list(tx: StoreTx, accountId: number, query: ListQuery): Promise<Page<T>> {
    const page = await tx.docs.list<T>(this.kind, accountId, query);
    return { total: page.total, items: page.items.map((d) => this.sealed.open(d.doc)) };
  }

  /** The ids of every document of the account under `parentId`, without opening them: for deleting what goes with a parent. */
  async childIds(tx: StoreTx, accountId: number, parentId: string | number): Promise<string[]> {
    const page = await tx.docs.list<T>(this.kind, accountId, { parentId: String(parentId), offset: 0, limit: Number.MAX_SAFE_INTEGER });
    return page.items.map((d) => d.id);
  }

  /** For the data planes, which know a resource by its platform-wide name: whatever its account. */
  async findByName(tx: StoreTx, name: string): Promise<StoredDoc<T> | undefined> {
    const found = await tx.docs.findByName<T>(this.kind, name);
    if (found) this.sealed.open(found.doc);
    return found;
  }

  async nameTaken(tx: StoreTx, name: string): Promise<boolean> {
    return tx.docs.nameExists(this.kind, name);
  }

  async insert(tx: StoreTx, accountId: number, id: string | number, doc: T): Promise<void> {
    try {
      await tx.docs.insert(this.kind, { id: String(id), accountId, doc: this.sealed.seal(doc), ...this.indexOf(doc) });
    } catch (error) {
      throw this.translate(error);
    }
  }

  /** Writes a new version; fails with 409 if the document changed since `current` was read. */
  async update(tx: StoreTx, accountId: number, current: StoredDoc<T>, doc: T): Promise<void> {
    let ok: boolean;
    try {
      const change = { id: current.id, version: current.version, doc: this.sealed.seal(doc), ...this.indexOf(doc) };
      ok = await tx.docs.update(this.kind, accountId, change);
    } catch (error) {
      throw this.translate(error);
    }
    if (!ok) throw errors.conflict(`The ${this.label} was changed by another request; retry.`, 'concurrent_update');
  }

  async delete(tx: StoreTx, accountId: number, id: string | number): Promise<void> {
    if (!(await tx.docs.delete(this.kind, accountId, String(id)))) throw errors.notFound(this.label);
  }

  private translate(error: unknown): unknown {
    if (error instanceof NameTakenError) return this.takenError?.(error.taken) ?? errors.nameTaken(this.nameField, this.label, error.taken);
    return error;
  }
}
