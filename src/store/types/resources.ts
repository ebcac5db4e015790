/** Resources: JSON documents with the few columns the store indexes itself (owner, unique name, parent, link). */

export type ResourceKind =
  | 'pullZone'
  | 'storageZone'
  | 'dnsZone'
  | 'dnsRecord'
  | 'videoLibrary'
  | 'containerApp'
  /** An image registry of the container API, with its sealed credentials. */
  | 'containerRegistry'
  /** Where a container application's logs are forwarded; one per application, by its id. */
  | 'logForwarding'
  /** A pull zone hostname, indexed by value so a hostname belongs to one zone platform-wide. */
  | 'hostname'
  /** Remembers a seed item already applied, so a seed can be applied again safely. */
  | 'seedMark'
  /** The latest record scan of a domain, per account (`POST /dnszone/records/scan`), indexed by its domain. */
  | 'dnsRecordScan'
  /** An image of a video library (its watermark, live thumbnail, live watermark): where its bytes are. */
  | 'videoLibraryImage'
  /** A pending certificate challenge of a pull zone hostname (DNS or HTTP), until completed or expired. */
  | 'certificateChallenge'
  /** A webhook of a video library: the event, where it went and each attempt's outcome. */
  | 'videoWebhookDelivery'
  /** The wildcard certificate issued for a DNS zone (`POST /dnszone/{id}/certificate/issue`), its key sealed. */
  | 'zoneCertificate'
  /** A video of a video library, by its GUID; under its library (parent), linked to its collection. */
  | 'video'
  /** A collection of a video library's videos, by its GUID; under its library. */
  | 'videoCollection'
  /** A resumable upload of a video's source, by its id; under its library, linked to its video (domain/videos/resumable-uploads.ts). */
  | 'videoUpload'
  /** An edge script: its code as uploaded, variables, secrets (sealed), live release (domain/edge/scripts/). */
  | 'edgeScript'
  /** A published release of an edge script's code, under its script. */
  | 'edgeScriptRelease';

export interface StoredDoc<T> {
  id: string;
  accountId: number;
  version: number;
  doc: T;
}

export interface NewDoc<T> {
  id: string;
  accountId: number;
  /** Kept unique per kind across all accounts (the platform's names are global). */
  name?: string | null;
  parentId?: string | null;
  linkId?: string | null;
  doc: T;
}

export interface DocChange<T> {
  id: string;
  /** The version read; the write fails (returns false) if someone else wrote in between. */
  version: number;
  name?: string | null;
  parentId?: string | null;
  linkId?: string | null;
  doc: T;
}

export interface ListQuery {
  offset: number;
  limit: number;
  parentId?: string;
  linkId?: string;
  /** Case-insensitive substring of the indexed name. */
  search?: string;
  /** Only documents with an indexed name (a deleted storage zone gives its name up, keeping its row). */
  named?: boolean;
}

export interface Page<T> {
  items: T[];
  total: number;
}

/** Raised by implementations when a unique name is already used; the domain turns it into a 400. */
export class NameTakenError extends Error {
  constructor(
    readonly kind: ResourceKind,
    readonly taken: string,
  ) {
    super(`${kind} name "${taken}" is taken`);
  }
}

export interface Documents {
  get<T>(kind: ResourceKind, accountId: number, id: string): Promise<StoredDoc<T> | undefined>;
  /** Operator and job access, not scoped by account: never reachable from an account's request. */
  getAnyAccount<T>(kind: ResourceKind, id: string): Promise<StoredDoc<T> | undefined>;
  /** Every document of a kind, all accounts, in the order they were added (for the data planes' in-memory views). */
  scan<T>(kind: ResourceKind, offset: number, limit: number): Promise<StoredDoc<T>[]>;
  list<T>(kind: ResourceKind, accountId: number, query: ListQuery): Promise<Page<StoredDoc<T>>>;
  /** Whether any account uses the name: names of these kinds are platform-wide. */
  nameExists(kind: ResourceKind, name: string): Promise<boolean>;
  /**
   * Whether the document exists and holds its name (a tombstone gives its name up). Inside a
   * transaction it also keeps a concurrent delete of the document waiting until the end.
   */
  holdsName(kind: ResourceKind, id: string): Promise<boolean>;
  /** The document holding a platform-wide name (case-insensitive), whichever account owns it: for the data planes, which know a zone by name. */
  findByName<T>(kind: ResourceKind, name: string): Promise<StoredDoc<T> | undefined>;
  insert<T>(kind: ResourceKind, doc: NewDoc<T>): Promise<void>;
  update<T>(kind: ResourceKind, accountId: number, change: DocChange<T>): Promise<boolean>;
  delete(kind: ResourceKind, accountId: number, id: string): Promise<boolean>;
}
