/** The Fastify instance type the video plane's routes are written against: TypeBox-typed, with the services and the request's library. */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import { Type } from 'typebox';
import type { Services } from '../../domain/services.js';
import type { LibraryAccess } from '../../domain/videos/types.js';
import { Int64 } from '../../schemas/common.js';

/** `read`: the read-only key may call it; `write`: only the library's `ApiKey`; `public`: no key (oEmbed, which checks its own). */
export type VideoAccess = 'read' | 'write' | 'public';

declare module 'fastify' {
  interface FastifyRequest {
    /** The library the path names, as the presented key opens it (set before the body is read). */
    library: LibraryAccess;
  }
  interface FastifyContextConfig {
    videoAccess?: VideoAccess;
  }
}

export type VideoApi = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider> & {
  services: Services;
};

/** Every tag an operation of the video API may carry (its OpenAPI document's tags). */
export const VIDEO_API_TAGS = [
  { name: 'Videos', description: "A library's videos: their records, the upload of their file, their captions and thumbnail." },
  { name: 'Collections', description: "Groups of a library's videos." },
  { name: 'Encoding', description: 'Encoding a video again, adding an output codec, removing renditions.' },
  { name: 'Reports', description: 'What players start from (play data), views, watch time, the heatmap, renditions and storage.' },
  { name: 'Embedding', description: 'Describing a video for embedding in another site (oEmbed).' },
];

export { errorResponses as errorAnswers } from '../common/error-responses.js';

export const LibraryParams = Type.Object({ libraryId: Int64({ minimum: 1, description: 'Identifier of the video library.' }) });
export const VideoParams = Type.Object({
  libraryId: LibraryParams.properties.libraryId,
  videoId: Type.String({ maxLength: 64, description: 'Identifier (GUID) of the video.' }),
});
export const CollectionParams = Type.Object({
  libraryId: LibraryParams.properties.libraryId,
  collectionId: Type.String({ maxLength: 64, description: 'Identifier (GUID) of the collection.' }),
});

/** The platform's plain success answer. */
export const done = (message: string | null = null, statusCode = 200) => ({ success: true, message, statusCode });
