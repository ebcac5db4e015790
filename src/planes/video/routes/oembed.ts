/**
 * `GET /OEmbed?url=…`: the oEmbed description of a video from its embed address, for sites that
 * turn pasted links into players. No key: it tells what the embed page shows anyway; a library
 * that protects its player gets the token and expiry passed on into the iframe's address, where
 * the embed page checks them.
 */
import { Type } from 'typebox';
import { errors } from '../../../domain/errors.js';
import { embedTarget } from '../../../domain/videos/reports.js';
import { Int32 } from '../../../schemas/common.js';
import { OEmbed } from '../../../schemas/video-reports.js';
import { errorAnswers, type VideoApi } from '../video-api.js';

export default function oEmbedRoute(app: VideoApi) {
  app.get('/OEmbed', {
    config: { videoAccess: 'public' },
    schema: {
      operationId: 'OEmbed_GetOEmbed',
      summary: 'Describe a video for embedding (oEmbed)',
      tags: ['Embedding'],
      security: [],
      querystring: Type.Object({
        url: Type.String({ maxLength: 2048, description: 'The embed address of the video.' }),
        maxWidth: Type.Optional(Int32({ minimum: 1 })),
        maxHeight: Type.Optional(Int32({ minimum: 1 })),
        token: Type.Optional(Type.String({ maxLength: 200 })),
        expires: Type.Optional(Type.Integer({ minimum: 0 })),
      }),
      response: { 200: OEmbed, ...errorAnswers },
    },
    handler: async (req) => {
      const target = embedTarget(req.query.url);
      const library = await app.services.videos.keys.find(target.libraryId);
      if (!library) throw errors.notFound('video');
      const embed = new URL(req.query.url);
      if (req.query.token) embed.searchParams.set('token', req.query.token);
      if (req.query.expires) embed.searchParams.set('expires', String(req.query.expires));
      return app.services.videoReports.oEmbed({ ...library, canWrite: false }, target.guid, embed.href, req.query.maxWidth, req.query.maxHeight);
    },
  });
}
