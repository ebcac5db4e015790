/** One of each resource for an account, through the API, and the ids the routes take. */
import { expect } from 'vitest';
import type { TestContext } from '../../helpers/app.js';
import { png } from '../../http/video-libraries/image-fixtures.js';
import type { LinkKind, Operation, Param } from './operations.js';

/** What an app needs for buildWorld: a resolver for the record scan (none is there: the scan fails in the background, as it may). */
export const WORLD_CONFIG = { dnsUpstream: '127.0.0.1:9' } as const;

export interface World {
  apiKey: number;
  pullZone: number;
  edgeRule: string;
  storageZone: number;
  dnsZone: number;
  dnsRecord: number;
  videoLibrary: number;
  app: string;
  container: string;
  endpoint: string;
  /** A running pod of the application. */
  pod: string;
  /** A persistent volume of the application (its name), and one of its instances. */
  volume: string;
  volumeInstance: string;
  /** An image registry of the account; it has a log forwarding configuration for `app` too. */
  registry: number;
  /** A closed month's statement, with charges (so also a payment request's id). */
  billingRecord: number;
  paymentRequest: number;
  /** Values that name nothing an account owns: the same for every account (see SHARED). */
  day: string;
  priceSource: number;
  /** A URL served by the world's pull zone (`POST /purge?url=`), and its hostname (`loadFreeCertificate?hostname=`). */
  purgeUrl: string;
  hostname: string;
  /** An edge script, published, with a variable and a secret; its release's uuid. */
  edgeScript: number;
  scriptVariable: number;
  scriptSecret: number;
  scriptRelease: string;
}

/**
 * Parameters every account may use alike (a day of the audit log, a billing source): not part of
 * the wall. A purge URL and a hostname are names, not ids: another account's answer 400 naming the
 * parameter (test/planes/edge/purge.test.ts, test/http/certificates/), not the 404 of ids.
 */
export const SHARED: readonly (keyof World)[] = ['day', 'priceSource', 'purgeUrl', 'hostname'];

export interface WorldOptions {
  /**
   * Where the world's image registry is (`http://127.0.0.1:<port>`, holding `WORLD_IMAGE`). By
   * default a loopback port nothing listens on: the registry's record exists, questions asked of
   * it answer 422.
   */
  registryUrl?: string;
}

async function ok(res: Promise<{ status: number; body: unknown }>, what: string): Promise<Record<string, unknown>> {
  const r = await res;
  expect(r.status, `${what}: ${JSON.stringify(r.body)}`).toBeLessThan(300);
  return r.body as Record<string, unknown>;
}

/** `tag` keeps the platform-wide unique names of two accounts apart. */
export async function createWorld(t: TestContext, key: string, tag: string, options: WorldOptions = {}): Promise<World> {
  const apiKey = (await ok(t.post('/apikey', {}, key), 'api key')).Id as number;
  const storageZone = (await ok(t.post('/storagezone', { Name: `${tag}-files`, Region: 'DE' }, key), 'storage zone')).Id as number;
  const pullZone = (await ok(t.post('/pullzone', { Name: `${tag}-cdn`, OriginUrl: 'https://origin.example.com' }, key), 'pull zone')).Id as number;
  await ok(t.post(`/pullzone/${pullZone}/addHostname`, { Hostname: `cdn.${tag}.example` }, key), 'hostname');
  const rule = await ok(
    t.post(
      `/pullzone/${pullZone}/edgerules/addOrUpdate`,
      {
        ActionType: 4,
        Description: 'Block admin',
        Triggers: [{ Type: 0, PatternMatches: ['*/admin'], PatternMatchingType: 0 }],
        TriggerMatchingType: 0,
        Enabled: true,
      },
      key,
    ),
    'edge rule',
  );
  const dnsZone = (await ok(t.post('/dnszone', { Domain: `${tag}.example` }, key), 'dns zone')).Id as number;
  const dnsRecord = (await ok(t.put(`/dnszone/${dnsZone}/records`, { Type: 0, Name: 'www', Value: '192.0.2.1', Ttl: 300 }, key), 'dns record')).Id as number;
  // The latest record scan of the zone is a resource of its own to read (404 until one was asked for);
  // the app needs WORLD_CONFIG for it.
  await ok(t.post('/dnszone/records/scan', { ZoneId: dnsZone }, key), 'dns record scan');
  const videoLibrary = (await ok(t.post('/videolibrary', { Name: `${tag} videos` }, key), 'video library')).Id as number;
  const app = (
    await ok(
      t.post(
        '/mc/apps',
        {
          name: `${tag} app`,
          runtimeType: 'shared',
          autoScaling: { min: 1, max: 2 },
          regionSettings: { allowedRegionIds: ['DE'], requiredRegionIds: ['DE'] },
          volumes: [{ name: 'data', size: 1 }],
        },
        key,
      ),
      'application',
    )
  ).id as string;
  const template = {
    name: 'web',
    imageName: 'nginx',
    imageNamespace: 'library',
    imageTag: '1.25',
    imageRegistryId: '1',
    endpoints: [{ displayName: 'public', cdn: { isSslEnabled: true, portMappings: [{ containerPort: 8080, exposedPort: 80, protocols: ['tcp'] }] } }],
  };
  const container = (await ok(t.post(`/mc/apps/${app}/containers`, template, key), 'container template')).id as string;
  const pod = ((await ok(t.get(`/mc/apps/${app}`, key), 'application')).containerInstances as { podId: string }[])[0]!.podId;
  const volumes = (await ok(t.get(`/mc/apps/${app}/volumes`, key), 'volumes')).items as { volumeInstances: { id: string }[] }[];
  const registry = (
    await ok(t.post('/mc/registries', { displayName: `${tag} images`, hostName: options.registryUrl ?? 'http://127.0.0.1:1' }, key), 'registry')
  ).id as number;
  await ok(
    t.post('/mc/log/forwarding', { app, type: 'SyslogUdp', endpoint: 'logs.example.com', port: 514, format: 'SyslogRfc5424', enabled: true }, key),
    'log forwarding',
  );
  for (const image of ['watermark', 'live/thumbnail', 'live/watermark']) {
    await ok(t.request('PUT', `/videolibrary/${videoLibrary}/${image}`, png(16, 16), key, { 'content-type': 'image/png' }), image);
  }
  const edgeScript = (await ok(t.post('/compute/script', { Name: `${tag}-script`, Code: 'export {};', ScriptType: 1 }, key), 'edge script')).Id as number;
  const scriptVariable = (
    await ok(t.post(`/compute/script/${edgeScript}/variables/add`, { Name: 'GREETING', Required: false, DefaultValue: 'hi' }, key), 'variable')
  ).Id as number;
  const scriptSecret = (await ok(t.post(`/compute/script/${edgeScript}/secrets`, { Name: 'TOKEN', Secret: `${tag}-script-secret` }, key), 'secret'))
    .Id as number;
  await ok(t.post(`/compute/script/${edgeScript}/publish`, {}, key), 'publish');
  const scriptRelease = (await ok(t.get(`/compute/script/${edgeScript}/releases/active`, key), 'release')).Uuid as string;
  // Last month, with traffic, closed into a statement as the first billing read after it would.
  const { accountId } = (await t.app.services.apiKeys.authenticate(key))!;
  const lastMonth = new Date(Date.UTC(t.clock.read().getUTCFullYear(), t.clock.read().getUTCMonth() - 1, 15));
  t.app.services.usage.add(`pullZone:${pullZone}`, 'bandwidth', 2_000_000_000, lastMonth);
  const statement = await t.app.services.billing.closeMonth(accountId, lastMonth.toISOString().slice(0, 7));
  return {
    apiKey,
    pullZone,
    edgeRule: rule.Guid as string,
    storageZone,
    dnsZone,
    dnsRecord,
    videoLibrary,
    app,
    container,
    endpoint: 'public',
    pod,
    volume: 'data',
    volumeInstance: volumes[0]!.volumeInstances[0]!.id,
    registry,
    billingRecord: statement.id,
    paymentRequest: statement.id,
    day: t.clock.read().toISOString().slice(0, 10),
    priceSource: 1101,
    purgeUrl: `https://cdn.${tag}.example/styles/site.css`,
    hostname: `cdn.${tag}.example`,
    edgeScript,
    scriptVariable,
    scriptSecret,
    scriptRelease,
  };
}

/** Ids no account has: what an unknown id looks like for each parameter. */
export const NOBODY: World = {
  apiKey: 987654321,
  pullZone: 987654321,
  edgeRule: '00000000-0000-4000-8000-00000000dead',
  storageZone: 987654321,
  dnsZone: 987654321,
  dnsRecord: 987654321,
  videoLibrary: 987654321,
  app: 'a0000000000000000000',
  container: 'c0000000000000000000',
  endpoint: 'nowhere',
  pod: 'p0000000000000000000',
  volume: 'nowhere',
  volumeInstance: 'nowhere-0',
  registry: 987654321,
  billingRecord: 987654321,
  paymentRequest: 987654321,
  day: '2026-01-01',
  priceSource: 1101,
  purgeUrl: 'https://nobody.example/styles/site.css',
  hostname: 'cdn.nobody.example',
  edgeScript: 987654321,
  scriptVariable: 987654321,
  scriptSecret: 987654321,
  scriptRelease: '00000000-0000-4000-8000-00000000dead',
};

/** Which resource a path or query parameter names, from its name and the segment before it. */
export function resourceOf(op: Operation, param: Param): keyof World | undefined {
  switch (param.name) {
    case 'url':
      return op.path === '/purge' ? 'purgeUrl' : undefined;
    case 'hostname':
      return op.path === '/pullzone/loadFreeCertificate' ? 'hostname' : undefined;
    case 'appId':
      return 'app';
    case 'containerId':
      return 'container';
    case 'endpointId':
      return 'endpoint';
    case 'pullZoneId':
      return 'pullZone';
    case 'edgeRuleId':
      return 'edgeRule';
    case 'podId':
      return 'pod';
    case 'volumeId':
      return 'volume';
    case 'instanceId':
      return 'volumeInstance';
    case 'registryId':
      return 'registry';
    case 'zoneId':
      return op.path.startsWith('/dnszone') ? 'dnsZone' : undefined;
    case 'billingRecordId':
      return 'billingRecord';
    case 'date':
      return 'day';
    case 'source':
      return 'priceSource';
    case 'variableId':
      return 'scriptVariable';
    case 'secretId':
      return 'scriptSecret';
    case 'uuid':
      return op.path.startsWith('/compute/script') ? 'scriptRelease' : undefined;
    case 'resourceId':
      // The world's price source (CDN traffic) prices a pull zone.
      return op.path.startsWith('/v1/pricing') ? 'pullZone' : undefined;
  }
  if (param.name !== 'id') return undefined;
  const segments = op.path.split('/').filter(Boolean);
  const at = segments.indexOf('{id}');
  const owner = param.in === 'path' ? segments[at - 1] : segments[0];
  const byOwner: Record<string, keyof World> = {
    apikey: 'apiKey',
    pullzone: 'pullZone',
    storagezone: 'storageZone',
    dnszone: 'dnsZone',
    // The operator's query log, access log and webhook deliveries: /_edgeplane/dnszones/{id}/querylog,
    // /_edgeplane/pullzones/{id}/accesslog, /_edgeplane/videolibraries/{id}/webhooks.
    dnszones: 'dnsZone',
    pullzones: 'pullZone',
    videolibraries: 'videoLibrary',
    records: 'dnsRecord',
    videolibrary: 'videoLibrary',
    'payment-request-invoice': 'paymentRequest',
    script: 'edgeScript',
  };
  return owner === undefined ? undefined : byOwner[owner.toLowerCase()];
}

export const linkValue = (world: World, kind: LinkKind): number | string => world[kind];
