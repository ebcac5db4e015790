/**
 * The README's Permissions table against what the operations declare (`x-edgeplane-access` in the
 * OpenAPI document): every GET reads but those listed one by one, the POSTs listed one by one are
 * exactly the other reads, and everything else writes. What the declarations do to a read-only key is tested in
 * test/security/account-wall.test.ts.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../helpers/app.js';

interface Row {
  operations: string;
  access: string;
  readOnly: string;
}

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

function permissionRows(): Row[] {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const table = readme.split('<!-- permissions:start -->')[1]!.split('<!-- permissions:end -->')[0]!;
  return table
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| Operations') && !line.startsWith('|---'))
    .map((line) => {
      const [operations, access, readOnly] = line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim());
      return { operations: operations!, access: access!, readOnly: readOnly! };
    });
}

/** `METHOD /path` of every API-key operation (operators' routes take their own token), with its declared access. */
async function declaredAccess(): Promise<Map<string, unknown>> {
  const doc = (await t.get('/openapi.json', null)).body as { paths: Record<string, Record<string, Record<string, unknown>>> };
  const out = new Map<string, unknown>();
  for (const [path, ops] of Object.entries(doc.paths)) {
    if (path.startsWith('/_edgeplane/')) continue;
    for (const [method, op] of Object.entries(ops)) out.set(`${method.toUpperCase()} ${path}`, op['x-edgeplane-access']);
  }
  return out;
}

describe('README permissions table', () => {
  it('says what a read-only key may call: a read, never a write', () => {
    const rows = permissionRows();
    expect(rows.length).toBeGreaterThanOrEqual(3);
    for (const row of rows) expect(row.readOnly, row.operations).toBe(row.access === 'read' ? 'yes' : '403');
    expect(rows[0]).toMatchObject({ operations: 'Every `GET` (and `HEAD`)', access: 'read' });
    expect(rows[rows.length - 1]).toMatchObject({ access: 'write' });
    expect(rows[rows.length - 1]!.operations).toMatch(/^Every other `POST`, and every `PUT`, `PATCH` and `DELETE`$/);
  });

  it('lists exactly the operations that read though they are not GETs', async () => {
    const declared = await declaredAccess();
    expect(declared.size).toBeGreaterThan(60);
    for (const [operation, access] of declared) {
      expect(access, `${operation}: x-edgeplane-access`).toMatch(/^(read|write)$/);
    }
    const listed = (access: string) =>
      permissionRows()
        .filter((row) => row.access === access)
        .map((row) => /^`([A-Z]+ \S+)`$/.exec(row.operations)?.[1])
        .filter((operation): operation is string => operation !== undefined);
    const otherReads = [...declared].filter(([operation, access]) => access === 'read' && !operation.startsWith('GET ')).map(([operation]) => operation);
    expect(listed('read').sort()).toEqual(otherReads.sort());
    // A GET that writes (the platform's loadFreeCertificate) is listed by name.
    const getsThatWrite = [...declared].filter(([operation, access]) => access === 'write' && operation.startsWith('GET ')).map(([operation]) => operation);
    expect(listed('write').sort()).toEqual(getsThatWrite.sort());
  });
});
