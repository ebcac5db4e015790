/**
 * `node load-bundle.mjs <bundle> <cacheDir|-> <digest>` (this file built by code-cache.test.ts):
 * loads a bundle through the code cache in a process of its own (in one process V8's in-memory
 * compilation cache would answer a second load of the same source before the disk cache is ever
 * read), saves the cache, and prints what happened, what the bundle's fib(20) says and the file its
 * stack frames name, as JSON.
 */
import { loadBundle } from '../../src/boot/code-cache.js';

const [file, dir, digest] = process.argv.slice(2) as [string, string, string];
const loaded = loadBundle<{ fib(n: number): number; frameFile(): string }>(file, { dir: dir === '-' ? null : dir, digest });
loaded.save();
process.stdout.write(JSON.stringify({ cache: loaded.cache, fib: loaded.exports.fib(20), frameFile: loaded.exports.frameFile() }));
