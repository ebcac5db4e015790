/**
 * A release's modules in the edge scripts' cache (script-modules.ts): written once per content, so
 * processes started again (a restart, another instance) find Deno's compiled code; never a folder
 * half written, even when two processes write the same content at once; readable by the user only;
 * removed, with Deno's emitted code of them, once no process started from them for a month.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pruneScriptModules, UNUSED_DAYS, writeScriptModules } from '../../src/domain/edge/scripts/runtime/script-modules.js';

const cacheDir = join(mkdtempSync(join(tmpdir(), 'edgeplane-script-modules-')), 'cache');
afterAll(() => rmSync(dirname(cacheDir), { recursive: true, force: true }));

const SCRIPT = 'import * as BunnySDK from "https://esm.sh/@bunny.net/edgescript-sdk@0.11.2";\nBunnySDK.net.http.serve(() => new Response("a"));\n';

describe("a release's modules", () => {
  it('are written once per content, under a name of their own, the SDK resolved to the installed copy', async () => {
    const first = await writeScriptModules(cacheDir, SCRIPT);
    const again = await writeScriptModules(cacheDir, SCRIPT);
    const other = await writeScriptModules(cacheDir, SCRIPT.replace('"a"', '"b"'));
    expect(again).toEqual(first);
    expect(other.main).not.toBe(first.main);
    expect(first.denoDir).toBe(cacheDir);
    expect(readFileSync(join(dirname(first.main), 'script.ts'), 'utf8')).toContain('from "@bunny.net/edgescript-sdk"');
    const map = JSON.parse(readFileSync(first.importMap, 'utf8')) as { imports: Record<string, string> };
    expect(map.imports['@bunny.net/edgescript-sdk']).toMatch(/^file:\/\/.*lib\.mjs$/);
    // The scripts' code is the user's alone.
    expect(statSync(dirname(first.main)).mode & 0o777).toBe(0o700);
  });

  it('are whole when several processes write the same content at once', async () => {
    const code = `${SCRIPT}// concurrent\n`;
    const written = await Promise.all(Array.from({ length: 8 }, () => writeScriptModules(cacheDir, code)));
    expect(new Set(written.map((w) => w.main)).size).toBe(1);
    expect(readFileSync(written[0]!.main, 'utf8')).toContain("import * as script from './script.ts';");
    // The staging folders of those that lost the race are gone.
    expect(readdirSync(join(cacheDir, 'modules')).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('are removed once unused for a month, with what Deno emitted for them; a use keeps them', async () => {
    const day = 86_400_000;
    const old = await writeScriptModules(cacheDir, `${SCRIPT}// old\n`);
    const used = await writeScriptModules(cacheDir, `${SCRIPT}// used again\n`);
    const oldDir = dirname(old.main);
    const usedDir = dirname(used.main);
    const long = new Date(Date.now() - (UNUSED_DAYS + 1) * day);
    utimesSync(oldDir, long, long);
    utimesSync(usedDir, long, long);
    // What Deno emits for a local module lives under gen/file/<its path>.
    const emitted = join(cacheDir, 'gen', 'file', oldDir);
    mkdirSync(emitted, { recursive: true });
    writeFileSync(join(emitted, 'script.ts.js'), '');
    await writeScriptModules(cacheDir, `${SCRIPT}// used again\n`);
    const before = readdirSync(join(cacheDir, 'modules')).length;
    expect(await pruneScriptModules(cacheDir)).toBe(1);
    expect(existsSync(oldDir)).toBe(false);
    expect(existsSync(emitted)).toBe(false);
    expect(existsSync(used.main)).toBe(true);
    expect(readdirSync(join(cacheDir, 'modules'))).toHaveLength(before - 1);
  });
});
