/** The package version, read once from package.json (works from src/ and dist/bundle/). */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
function findVersion(): string {
  for (const path of ['../package.json', '../../package.json']) {
    try {
      const pkg = require(path) as { name?: string; version?: string };
      if (pkg.name === 'edgeplane' && pkg.version) return pkg.version;
    } catch {
      // Not at this depth; try the next.
    }
  }
  return '0.0.0';
}
export const VERSION = findVersion();
