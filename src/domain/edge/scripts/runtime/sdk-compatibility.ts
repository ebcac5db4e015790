/**
 * Scripts written for the platform import its scripting SDK by the npm name or by an esm.sh URL of
 * any version; both resolve here to the copy `npm ci` installed (its build for the platform's own
 * runtime, which hands the handler and hooks to the global the runner defines), with no network
 * at run time. The package's name is a compatibility name, byte for byte: this file is the one
 * place it appears in the code.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const SDK_NAME = '@bunny.net/edgescript-sdk';
/** `https://esm.sh/@bunny.net/edgescript-sdk@0.11.2` or `npm:@bunny.net/edgescript-sdk@0.11`: any version, with or without `?` options. */
const SDK_SPECIFIER = /(["'])(?:https?:\/\/esm\.sh\/|npm:)@bunny\.net\/edgescript-sdk(?:@[\w.+-]*)?(?:\?[^"']*)?\1/g;

/** The SDK's module for the platform's runtime, in node_modules. */
export function sdkModulePath(): string {
  const manifest = createRequire(import.meta.url).resolve(`${SDK_NAME}/package.json`);
  return join(dirname(manifest), 'esm-bunny', 'lib.mjs');
}

/** The import map deno is given: the bare name to the installed copy. */
export function sdkImportMap(): { imports: Record<string, string> } {
  return { imports: { [SDK_NAME]: pathToFileURL(sdkModulePath()).href } };
}

/** The script's source with the SDK's URL and `npm:` specifiers written as the bare name the import map resolves. */
export function withLocalSdk(code: string): string {
  return code.replace(SDK_SPECIFIER, (_m, quote: string) => `${quote}${SDK_NAME}${quote}`);
}
