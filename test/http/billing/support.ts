/** What the billing tests share: an app with an operator, usage recorded as the planes record it, prices set on a zone. */
import { expect } from 'vitest';
import type { PullZoneT } from '../../../src/schemas/pull-zone.js';
import type { TestContext } from '../../helpers/app.js';

export const ADMIN = 'operator-token-for-billing-tests-0123456789';

export const operator = (t: TestContext, url: string, body: unknown) =>
  t.request('POST', `/_edgeplane${url}`, body, null, { authorization: `Bearer ${ADMIN}` });

export async function pullZone(t: TestContext, name: string, extra: Record<string, unknown> = {}, key?: string): Promise<PullZoneT> {
  const res = await t.post('/pullzone', { Name: name, OriginUrl: 'https://origin.example.com', ...extra }, key);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as PullZoneT;
}

/** Bytes served, as the edge records them: the total, and the part served from `region` when it says. */
export function served(t: TestContext, zoneId: number, bytes: number, region?: string, at?: Date): void {
  t.app.services.usage.add(`pullZone:${zoneId}`, 'bandwidth', bytes, at);
  if (region) t.app.services.usage.add(`pullZone:${zoneId}`, `bandwidth.${region}`, bytes, at);
}

/** What only the platform sets on a zone (its own price, its discounts): no request can, so the test writes them. */
export async function setZonePricing(t: TestContext, accountId: number, zoneId: number, pricing: Partial<PullZoneT>): Promise<void> {
  const zones = t.app.services.pullZones.zones;
  await t.store.transaction(async (tx) => {
    const zone = await zones.get(tx, accountId, zoneId);
    await zones.update(tx, accountId, zone, { ...zone.doc, ...pricing });
  });
}
