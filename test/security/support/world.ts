/** One of each resource for an account, through the API, and the ids the routes take. */
import { expect } from 'vitest';
import type { TestContext } from '../../helpers/app.js';
import type { LinkKind, Operation, Param } from './operations.js';

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
}

async function ok(res: Promise<{ status: number; body: unknown }>, what: string): Promise<Record<string, unknown>> {
  const r = await res;
  expect(r.status, `${what}: ${JSON.stringify(r.body)}`).toBeLessThan(300);
  return r.body as Record<string, unknown>;
}

/** `tag` keeps the platform-wide unique names of two accounts apart. */
export async function createWorld(t: TestContext, key: string, tag: string): Promise<World> {
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
  const videoLibrary = (await ok(t.post('/videolibrary', { Name: `${tag} videos` }, key), 'video library')).Id as number;
  const app = (
    await ok(
      t.post(
        '/mc/apps',
        { name: `${tag} app`, runtimeType: 'shared', autoScaling: { min: 1, max: 2 }, regionSettings: { allowedRegionIds: ['DE'], requiredRegionIds: ['DE'] } },
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
  return { apiKey, pullZone, edgeRule: rule.Guid as string, storageZone, dnsZone, dnsRecord, videoLibrary, app, container, endpoint: 'public' };
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
};

/** Which resource a path or query parameter names, from its name and the segment before it. */
export function resourceOf(op: Operation, param: Param): keyof World | undefined {
  switch (param.name) {
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
    case 'zoneId':
      return op.path.startsWith('/dnszone') ? 'dnsZone' : undefined;
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
    records: 'dnsRecord',
    videolibrary: 'videoLibrary',
  };
  return owner === undefined ? undefined : byOwner[owner.toLowerCase()];
}

export const linkValue = (world: World, kind: LinkKind): number | string => world[kind];
