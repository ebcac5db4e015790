/**
 * The kinds of configuration sub-resource operations, which bucket-config.ts and object-config.ts
 * put in rows: a configuration kept in the bucket's settings (read, written, removed); a write
 * that changes nothing when it says what is already so; a feature edgeplane does not have (never
 * set, refused when put with the reason, see ABSENT); listing configurations of a feature that has
 * none.
 */
import type { BucketSettings } from '../../domain/s3/types.js';
import { requireWrite } from './access.js';
import { S3Error } from './errors.js';
import { smallBody } from './request-body.js';
import { sendEmpty, sendXml } from './respond.js';
import type { Method, Permission, S3Call, S3Operation, Selector, Target } from './types.js';
import { element, parseXml, rootElement } from './xml.js';

type Run = S3Operation['run'];

/** One operation of a configuration sub-resource: its method, S3's name for it, its permission, what does it and, among several of one method, what picks it. */
export type ConfigRow = [method: Method, name: string, permission: Permission, run: Run, when?: Selector];

/** The rows of one configuration sub-resource (`?tagging` …) of a bucket or an object. */
export function configuration(target: Exclude<Target, 'service'>, name: string, rows: ConfigRow[]): S3Operation[] {
  return rows.map(([method, operation, permission, run, when]) => ({
    name: operation,
    target,
    method,
    configuration: name,
    permission,
    run,
    ...(when === undefined ? {} : { when }),
  }));
}

/** S3's limit for a configuration document; a lifecycle configuration of 1,000 rules needs more. */
export const CONFIG_BODY_BYTES = 64 * 1024;
export const LIFECYCLE_BODY_BYTES = 4 * 1024 * 1024;

/** Features edgeplane does not have, and why: a write that would turn one on is NotImplemented with this reason. */
const ABSENT = {
  versioning: 'every object has exactly one version (null); versioning can be suspended, not enabled',
  mfaDelete: 'MFA delete needs versioning, which is never enabled here',
  encryption: 'edgeplane stores files as they are sent and does not encrypt them at rest; it says so rather than claim it',
  website: 'static sites are served by a pull zone whose origin is the storage zone (the edge plane)',
  replication: 'a storage zone replicates to its ReplicationRegions, set through the management API, not to other buckets',
  logging: 'pull zones keep access logs (EnableLogging); the S3 plane keeps no server access log',
  notification: 'there are no event destinations (SNS topics, SQS queues, Lambda functions) to notify',
  accelerate: 'transfer acceleration is a feature of the AWS network',
  requestPayment: 'there are no other accounts to bill: the zone owner pays',
  analytics: 'storage class analysis is an AWS service; the zone statistics are in the management API',
  metrics: 'request metrics are a CloudWatch service; the zone statistics are in the management API',
  inventory: 'inventory reports are an AWS service; ListObjectsV2 lists the zone',
  'intelligent-tiering': 'every object is kept in the one STANDARD storage class',
  select: 'S3 Select (SQL over an object) is not available',
  torrent: 'objects are not served over BitTorrent',
} as const;

export type AbsentFeature = keyof typeof ABSENT;

export function absent(feature: AbsentFeature): S3Error {
  return new S3Error('NotImplemented', `Not available in edgeplane: ${ABSENT[feature]}.`, 501);
}

/** S3's "not found" for a configuration: its code and message. */
export type NotFound = [code: string, message: string];

export const settingsOf = (call: S3Call): Readonly<BucketSettings> => call.auth.settings;
export const saveSetting = <K extends keyof BucketSettings>(call: S3Call, name: K, value: BucketSettings[K] | undefined) =>
  call.deps.buckets.set(call.zone, name, value);

export function notConfigured(call: S3Call, [code, message]: NotFound): never {
  throw new S3Error(code, message, 404, { BucketName: call.zone.zoneName });
}

export async function configBody(call: S3Call, root: string): Promise<Record<string, unknown>> {
  return parseXml(await smallBody(call, CONFIG_BODY_BYTES), root);
}

/** A write that stores a configuration (or removes it), answered with `status`. */
export const writer =
  (status: number, write: (call: S3Call) => Promise<void>) =>
  async (call: S3Call): Promise<void> => {
    requireWrite(call);
    await write(call);
    sendEmpty(call.res, status);
  };

/** A write that changes nothing when the document says what is already so, and refuses anything else. */
export const unchanged =
  (root: string, isSo: (doc: Record<string, unknown>) => boolean, refusal: () => S3Error) =>
  async (call: S3Call): Promise<void> => {
    requireWrite(call);
    if (!isSo(await configBody(call, root))) throw refusal();
    sendEmpty(call.res, 200);
  };

export const emptyDocument = (doc: Record<string, unknown>) => Object.keys(doc).length === 0;

/** DELETE of a configuration that cannot exist: there is nothing to remove, which S3 answers with 204. */
export const nothingToDelete = writer(204, async () => {});

/** GET of a configuration kept in the settings: `answer` sends it, or it is S3's "not found" for it. */
export function kept<K extends keyof BucketSettings>(name: K, notFound: NotFound, answer: (call: S3Call, value: NonNullable<BucketSettings[K]>) => void): Run {
  return (call) => {
    const value = settingsOf(call)[name];
    if (value === undefined) notConfigured(call, notFound);
    answer(call, value as NonNullable<BucketSettings[K]>);
  };
}

/** DELETE of a configuration kept in the settings. */
export const removed = <K extends keyof BucketSettings>(name: K): Run => writer(204, (call) => saveSetting(call, name, undefined));

export const xmlOf =
  <T>(render: (value: T) => string) =>
  (call: S3Call, value: T) =>
    sendXml(call.res, 200, render(value));

/**
 * A configuration of a feature edgeplane does not have: never set (S3's "not found"), refused when
 * put, nothing to delete. `names` are S3's for getting, putting and deleting it.
 */
export function unavailable(
  feature: AbsentFeature,
  [get, put, remove]: [string, string, string],
  [read, write, erase]: [Permission, Permission, Permission],
  notFound: NotFound,
): ConfigRow[] {
  return [
    ['GET', get, read, (call) => notConfigured(call, notFound)],
    [
      'PUT',
      put,
      write,
      () => {
        throw absent(feature);
      },
    ],
    ['DELETE', remove, erase, nothingToDelete],
  ];
}

const noSuchConfiguration = () => new S3Error('NoSuchConfiguration', 'The specified configuration does not exist.', 404);

/**
 * Configurations of a feature that has none (analytics, metrics …): listing them (`?analytics`)
 * lists none, getting one (`?analytics&id=x`) or deleting one names none, putting one is refused.
 * `names` are S3's for listing, getting, putting and deleting them.
 */
export function noneOf(
  feature: AbsentFeature,
  listRoot: string,
  [list, get, put, remove]: [string, string, string, string],
  [read, write]: [Permission, Permission],
): ConfigRow[] {
  return [
    [
      'GET',
      get,
      read,
      () => {
        throw noSuchConfiguration();
      },
      { query: 'id' },
    ],
    ['GET', list, read, (call) => sendXml(call.res, 200, rootElement(listRoot, [element('IsTruncated', false)]))],
    [
      'PUT',
      put,
      write,
      () => {
        throw absent(feature);
      },
    ],
    [
      'DELETE',
      remove,
      write,
      () => {
        throw noSuchConfiguration();
      },
    ],
  ];
}
