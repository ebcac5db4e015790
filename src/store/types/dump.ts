/** The dump format (`edgeplane export` / `edgeplane import`): one JSON record a line. */
import type { AccessLogEntry } from './access-log.js';
import type { AuditEntry, BillingRecord } from './account-records.js';
import type { KeyKind } from './accounts.js';
import type { StoredAuthority } from './certificates.js';
import type { FileRecord } from './files.js';
import type { OriginErrorEntry } from './origin-errors.js';
import type { ResourceKind } from './resources.js';
import type { S3Upload, S3UploadPart } from './s3-uploads.js';
import type { UsageEntry } from './usage.js';

/** One line of a store dump (`edgeplane export`): rows as stored, credentials still sealed. */
export type DumpRecord =
  | { type: 'header'; format: 'edgeplane-dump'; version: 1; dialect: 'sqlite' | 'postgres'; createdAt: string }
  | { type: 'account'; id: number; name: string; balance: number; createdAt: string }
  | {
      type: 'apiKey';
      id: number;
      accountId: number;
      kind: KeyKind;
      roles: string[];
      lookupHash: string;
      sealedKey: string;
      createdAt: string;
      revokedAt: string | null;
    }
  | {
      type: 'resource';
      kind: ResourceKind;
      id: string;
      accountId: number;
      name: string | null;
      parentId: string | null;
      linkId: string | null;
      version: number;
      doc: string;
    }
  | { type: 'sequence'; name: string; last: number }
  | { type: 'job'; kind: string; payload: string; runAt: number; attempts: number }
  | ({ type: 'file' } & FileRecord)
  | { type: 'storageUsage'; zoneId: string; accountId: number; files: number; bytes: number }
  | { type: 'storageUsageDay'; zoneId: string; day: string; files: number; bytes: number }
  | { type: 'deadBlob'; key: string; deadAt: number }
  | ({ type: 'usage' } & UsageEntry)
  | ({ type: 'auditEntry' } & AuditEntry)
  | ({ type: 'billingRecord' } & BillingRecord)
  /** A DNS record of a zone (dumped after the resources, its zone among them). */
  | { type: 'dnsRecord'; zoneId: number; id: number; accountId: number; position: number; recordType: number; linkId: number | null; doc: string }
  | ({ type: 'certificateAuthority' } & StoredAuthority)
  /** `lines` is absent in dumps from before chunked logs: one line. */
  | ({ type: 'accessLogEntry' } & Omit<AccessLogEntry, 'lines'> & { lines?: number })
  | ({ type: 'originError'; id: number } & OriginErrorEntry)
  | ({ type: 's3Upload' } & S3Upload)
  | ({ type: 's3UploadPart' } & S3UploadPart);
