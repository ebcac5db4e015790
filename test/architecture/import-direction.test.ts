/**
 * Dependencies point one way: planes -> domain -> store, with the schemas beneath all of them, and
 * no two files import each other, even through others. The linter (biome.json) enforces both on
 * every `npm test`; these tests prove that the rules bite and that the tree obeys them.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const biome = join(root, 'node_modules/.bin/biome');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

const importsOf = (file: string) => [...readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((m) => m[1]!);

describe('import direction', () => {
  const probeDir = mkdtempSync(join(tmpdir(), 'edgeplane-arch-'));
  afterAll(() => rmSync(probeDir, { recursive: true, force: true }));

  function lint(files: Record<string, string>) {
    rmSync(join(probeDir, 'src'), { recursive: true, force: true });
    copyFileSync(join(root, 'biome.json'), join(probeDir, 'biome.json'));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(probeDir, path, '..'), { recursive: true });
      writeFileSync(join(probeDir, path), text);
    }
    return spawnSync(biome, ['lint', '--vcs-enabled=false', '--reporter=json', 'src'], { cwd: probeDir, encoding: 'utf8' });
  }

  it('the linter refuses a domain file that imports a plane', () => {
    const result = lint({
      'src/planes/api/app.ts': 'export const buildApp = 1;\n',
      'src/domain/probe.ts': "import { buildApp } from '../planes/api/app.js';\n\nexport const x = buildApp;\n",
    });
    expect(result.status).not.toBe(0);
    expect(result.stdout).toContain('noRestrictedImports');
  });

  it('the linter refuses a schema that imports the domain, and a store that imports Fastify', () => {
    const schema = lint({
      'src/domain/errors.ts': 'export const errors = 1;\n',
      'src/schemas/probe.ts': "import { errors } from '../domain/errors.js';\n\nexport const x = errors;\n",
    });
    expect(schema.status).not.toBe(0);
    const store = lint({ 'src/store/probe.ts': "import Fastify from 'fastify';\n\nexport const x = Fastify;\n" });
    expect(store.status).not.toBe(0);
  });

  it('the linter refuses a store or a configuration that imports the domain', () => {
    const domain = { 'src/domain/errors.ts': 'export const errors = 1;\n' };
    const store = lint({ ...domain, 'src/store/probe.ts': "import { errors } from '../domain/errors.js';\n\nexport const x = errors;\n" });
    expect(store.status).not.toBe(0);
    expect(store.stdout).toContain('noRestrictedImports');
    const config = lint({ ...domain, 'src/config.ts': "import { errors } from './domain/errors.js';\n\nexport const x = errors;\n" });
    expect(config.status).not.toBe(0);
    expect(config.stdout).toContain('noRestrictedImports');
  });

  it('the linter refuses an import circle, type-only imports included', () => {
    const result = lint({
      'src/domain/a.ts': "import type { B } from './b.js';\n\nexport interface A {\n  b?: B;\n}\n",
      'src/domain/b.ts': "import type { A } from './a.js';\n\nexport interface B {\n  a?: A;\n}\n",
    });
    expect(result.status).not.toBe(0);
    expect(result.stdout).toContain('noImportCycles');
  });

  it('the linter accepts a plane that imports the domain and the schemas', () => {
    const result = lint({
      'src/domain/errors.ts': 'export const errors = 1;\n',
      'src/schemas/error.ts': 'export const body = 1;\n',
      'src/planes/api/probe.ts':
        "import { errors } from '../../domain/errors.js';\nimport { body } from '../../schemas/error.js';\n\nexport const x = [errors, body];\n",
    });
    expect(result.stderr + result.stdout).not.toContain('noRestrictedImports');
    expect(result.status).toBe(0);
  });

  it('no file beneath the planes imports one', () => {
    const offenders: string[] = [];
    for (const layer of ['domain', 'store', 'schemas', 'jobs', 'security']) {
      for (const file of sourceFiles(join(root, 'src', layer))) {
        for (const spec of importsOf(file)) if (/(^|\/)planes\/|^fastify|^@fastify\//.test(spec)) offenders.push(`${relative(root, file)} -> ${spec}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
