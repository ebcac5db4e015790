/** What the pull zone tests share: response-schema checks and a zone to work on. */
import type { TSchema } from 'typebox';
import { expect } from 'vitest';
import type { PullZoneT } from '../../../src/schemas/pull-zone.js';
import type { TestContext } from '../../helpers/app.js';
import { schemaAjv } from '../../helpers/schema-ajv.js';

const ajv = schemaAjv();

/** Asserts that `value` matches `schema`, showing Ajv's complaints when it does not. */
export function expectShape(schema: TSchema, value: unknown): void {
  const validate = ajv.compile(schema);
  expect(validate(value), JSON.stringify(validate.errors)).toBe(true);
}

export const CDN_DOMAIN = 'cdn.example.test';

export async function createZone(t: TestContext, name = 'my-zone', extra: Record<string, unknown> = {}, key?: string): Promise<PullZoneT> {
  const res = await t.post('/pullzone', { Name: name, OriginUrl: 'https://origin.example.com', ...extra }, key);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as PullZoneT;
}

export const readZone = async (t: TestContext, id: number, query = ''): Promise<PullZoneT> => {
  const res = await t.get(`/pullzone/${id}${query}`);
  expect(res.status).toBe(200);
  return res.body as PullZoneT;
};

export const readOnlyKey = async (t: TestContext): Promise<string> => (await t.post('/apikey', { Roles: ['ReadOnly'] })).body.Key as string;
