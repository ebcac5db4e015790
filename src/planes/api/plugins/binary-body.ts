/**
 * Binary request bodies (the images of video libraries). The bytes are kept out of reach of what
 * walks JSON bodies — the input limits, the journal's redaction, the idempotency fingerprint,
 * which would otherwise visit every byte of a 10 MB image as a property — behind a private field;
 * what those see is the size and the SHA-256, so a retry with other bytes is a different request.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import { Type } from 'typebox';
import { AppError } from '../../../domain/errors.js';
import { emptyBodyOr } from '../../common/body-parsers.js';
import { validatorCompiler } from '../../common/validation.js';

export class BinaryBody {
  readonly size: number;
  readonly sha256: string;
  readonly #bytes: Buffer;

  constructor(bytes: Buffer) {
    this.#bytes = bytes;
    this.size = bytes.length;
    this.sha256 = createHash('sha256').update(bytes).digest('hex');
  }

  bytes(): Buffer {
    return this.#bytes;
  }
}

/** Reads the listed content types as bytes (up to `limit`) and refuses the others with 415; an empty body stays absent. */
export function readBinaryBodies(scope: FastifyInstance, contentTypes: readonly string[], limit: number): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser([...contentTypes], { parseAs: 'buffer', bodyLimit: limit }, (_req, body, done) => done(null, new BinaryBody(body as Buffer)));
  const types = contentTypes.join(', ');
  scope.addContentTypeParser(
    '*',
    emptyBodyOr(() => new AppError('unsupported_media_type', `Send the bytes as one of ${types}.`, 'unsupported_media_type')),
  );
}

/** The schema that documents such a body; the bytes themselves are checked by the domain. */
export const BinaryBodySchema = (description: string) => Type.Unsafe<BinaryBody | undefined>({ type: 'string', format: 'binary', description });

/** A route's validators: its body is bytes (nothing to validate here), everything else as usual. */
export const binaryBodyValidator: FastifySchemaCompiler<unknown> = (route) => (route.httpPart === 'body' ? () => true : validatorCompiler(route));
