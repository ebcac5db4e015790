/**
 * CSS and JavaScript minified by esbuild's `transform` (its service process does the work: the
 * event loop only waits). The syntax is kept as it came (no target lowering, no module format
 * change); a file esbuild cannot parse is answered as it is.
 */
import { transform } from 'esbuild';
import type { Made } from './types.js';

const CONTENT_TYPES = { css: 'text/css; charset=utf-8', js: 'application/javascript; charset=utf-8' } as const;

export async function minify(input: Buffer, loader: 'css' | 'js', contentType: string | undefined): Promise<Made> {
  const { code } = await transform(input.toString('utf8'), { loader, minify: true, legalComments: 'inline', logLevel: 'silent' });
  const body = Buffer.from(code);
  if (body.length >= input.length) return { kind: 'original', why: 'not-smaller' };
  return { kind: 'made', body, contentType: contentType ?? CONTENT_TYPES[loader] };
}
