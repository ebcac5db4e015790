/** The pull zone operations keep the platform's paths, methods and success statuses (reference/core-api). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../helpers/app.js';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const OPERATIONS = [
  ['get', '/pullzone', '200'],
  ['post', '/pullzone', '201'],
  ['get', '/pullzone/count', '200'],
  ['get', '/pullzone/{id}', '200'],
  ['post', '/pullzone/{id}', '200'],
  ['delete', '/pullzone/{id}', '204'],
  ['post', '/pullzone/checkavailability', '200'],
  ['post', '/pullzone/{id}/purgeCache', '204'],
  ['post', '/pullzone/{id}/resetSecurityKey', '204'],
  ['post', '/pullzone/{id}/addHostname', '204'],
  ['delete', '/pullzone/{id}/removeHostname', '204'],
  ['post', '/pullzone/{id}/setForceSSL', '204'],
  ['post', '/pullzone/{id}/addCertificate', '204'],
  ['delete', '/pullzone/{id}/removeCertificate', '204'],
  ['post', '/pullzone/{id}/addAllowedReferrer', '204'],
  ['post', '/pullzone/{id}/removeAllowedReferrer', '204'],
  ['post', '/pullzone/{id}/addBlockedReferrer', '204'],
  ['post', '/pullzone/{id}/removeBlockedReferrer', '204'],
  ['post', '/pullzone/{id}/addBlockedIp', '204'],
  ['post', '/pullzone/{id}/removeBlockedIp', '204'],
  ['post', '/pullzone/{pullZoneId}/edgerules/addOrUpdate', '201'],
  ['delete', '/pullzone/{pullZoneId}/edgerules/{edgeRuleId}', '204'],
  ['post', '/pullzone/{pullZoneId}/edgerules/{edgeRuleId}/setEdgeRuleEnabled', '204'],
] as const;

describe('pull zone operations in /openapi.json', () => {
  it.each(OPERATIONS)('%s %s answers %s', async (method, path, status) => {
    const doc = (await t.get('/openapi.json')).body;
    const operation = doc.paths[path]?.[method];
    expect(operation, `${method} ${path}`).toBeDefined();
    expect(Object.keys(operation.responses).filter((s) => s.startsWith('2'))).toEqual([status]);
    expect(operation.responses['404'] ?? operation.responses['400']).toBeDefined();
  });

  it('documents the list as an array or a page object', async () => {
    const schema = (await t.get('/openapi.json')).body.paths['/pullzone'].get.responses['200'].content['application/json'].schema;
    expect(schema.anyOf.map((s: { type: string }) => s.type)).toEqual(['array', 'object']);
    expect(Object.keys(schema.anyOf[1].properties)).toEqual(['Items', 'CurrentPage', 'TotalItems', 'HasMoreItems']);
  });
});
