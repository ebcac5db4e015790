import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigSchema, ENV_VARS, readConfig } from '../../src/config.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('README configuration table', () => {
  it('lists every option with its variable and default, and nothing else', () => {
    const table = readme.split('<!-- config:start -->')[1]!.split('<!-- config:end -->')[0]!;
    const rows = [...table.matchAll(/^\| `([A-Z0-9_]+)` \| (.+?) \| (.+?) \|$/gm)].map((m) => ({ variable: m[1]!, def: m[2]! }));
    const expected = Object.entries(ENV_VARS).map(([key, variable]) => {
      const d = (ConfigSchema.properties as Record<string, { default?: unknown }>)[key]!.default;
      return { variable, def: d === undefined ? '—' : `\`${String(d)}\`` };
    });
    expect(rows).toEqual(expected);
  });

  it('rejects a bad value naming the variable', () => {
    expect(() => readConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => readConfig({ EDGEPLANE_MASTER_KEY: 'short' })).toThrow(/EDGEPLANE_MASTER_KEY/);
    expect(readConfig({ PORT: '9000' }).port).toBe(9000);
  });
});
