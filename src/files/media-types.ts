/**
 * The media types of mime-db by file name, loaded on first use rather than at start: the database
 * and the maps built from it cost every start ~5 ms, for lookups that only serving a file makes.
 * Loaded from node_modules (outside the server bundle) by the same require in source and bundle.
 */
import { createRequire } from 'node:module';

type MimeTypes = typeof import('mime-types');

let loaded: MimeTypes | undefined;

export const mimeTypes = (): MimeTypes => (loaded ??= createRequire(import.meta.url)('mime-types') as MimeTypes);
