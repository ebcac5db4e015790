import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../helpers/app.js';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('README operations table', () => {
  it('lists exactly the operations of the OpenAPI document', async () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const table = readme.split('<!-- operations:start -->')[1]!.split('<!-- operations:end -->')[0]!;
    const listed = [...table.matchAll(/^\| [^|]+ \| `([A-Z]+ \S+)` \|/gm)].map((m) => m[1]!).sort();
    const doc = (await t.get('/openapi.json', null)).body as { paths: Record<string, Record<string, unknown>> };
    const served = Object.entries(doc.paths)
      .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`))
      .sort();
    expect(served.length).toBeGreaterThan(80);
    expect(listed).toEqual(served);
  });
});
