/** The folder of the installed package (it holds `migrations/` and `assets/`), from src/ and dist/bundle/ alike. */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Found by walking up to the folder that holds `migrations/` (dist/bundle/ has a package.json of its own, so that cannot be the mark). */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'migrations'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('package root not found');
    dir = up;
  }
  return dir;
}
