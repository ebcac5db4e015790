/**
 * The embed page: `GET /embed/{libraryId}/{videoId}` (what an iframe loads; `/play/…`, the direct
 * play address, when the library's AllowDirectPlay), public, HTML; and its static files under
 * `/_player/`. Registered in a scope of its own whose errors are small HTML pages too, since a
 * browser shows them inside the iframe (domain/videos/embed.ts decides what may be shown).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyError, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { appErrorOf } from '../../../domain/errors.js';
import { statusOf } from '../../common/errors.js';
import { PLAYER_ASSETS_PREFIX, PlayerAssets } from '../embed/assets.js';
import { type EmbedOptions, embedErrorPage, embedPage, embedPolicy, ERROR_PAGE_POLICY } from '../embed/page.js';
import type { VideoApi } from '../video-api.js';

const text = (maxLength: number) => Type.Optional(Type.String({ maxLength }));
const EmbedParams = Type.Object({ libraryId: Type.String({ maxLength: 20 }), videoId: Type.String({ maxLength: 64 }) });
const EmbedQuery = Type.Object({
  token: text(200),
  expires: text(20),
  autoplay: text(10),
  muted: text(10),
  loop: text(10),
  preload: text(10),
  t: text(20),
  captions: text(20),
});

/** Headers of every page: no sniffing, never cached (each has its own nonce), only the origin as referrer to the pull zone. */
function pageHeaders(reply: FastifyReply, policy: string): FastifyReply {
  return reply
    .type('text/html; charset=utf-8')
    .header('content-security-policy', policy)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'strict-origin')
    .header('cache-control', 'no-store');
}

const flag = (value: string | undefined, fallback: boolean) => (value === undefined ? fallback : value === 'true' || value === '1');

/** `t=90`, `t=90s`, `t=1m30s`, `t=1h2m3s` in seconds; anything else is 0. */
export function startSeconds(value: string | undefined): number {
  const match = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+(?:\.\d+)?)s?)?$/.exec(value ?? '');
  if (!match) return 0;
  return Number(match[1] ?? 0) * 3600 + Number(match[2] ?? 0) * 60 + Number(match[3] ?? 0);
}

export default async function embedRoutes(app: VideoApi) {
  const assets = new PlayerAssets();
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const appError = appErrorOf(error);
    const status = appError ? statusOf(appError.code) : error.validation ? 400 : 500;
    if (!appError && !error.validation) request.log.error({ err: error }, 'embed page failed');
    const message = appError?.message ?? (error.validation ? 'This address is not valid.' : 'The video cannot be shown right now.');
    return pageHeaders(reply.code(status), ERROR_PAGE_POLICY).send(embedErrorPage(status, message));
  });

  for (const kind of ['embed', 'play'] as const) {
    app.get(`/${kind}/:libraryId/:videoId`, {
      config: { videoAccess: 'public' },
      schema: { hide: true, params: EmbedParams, querystring: EmbedQuery },
      handler: async (req, reply) => {
        const { libraryId, videoId } = req.params;
        const q = req.query;
        const view = await app.services.videoEmbeds.open({
          libraryId: /^\d{1,15}$/.test(libraryId) ? Number(libraryId) : 0,
          guid: videoId.toLowerCase(),
          direct: kind === 'play',
          token: q.token,
          expires: q.expires,
          referer: req.headers.referer,
          clientIp: req.ip,
        });
        const options: EmbedOptions = {
          autoplay: flag(q.autoplay, false),
          muted: flag(q.muted, false),
          loop: flag(q.loop, false),
          preload: flag(q.preload, true),
          startTime: startSeconds(q.t),
          captions: q.captions,
        };
        const nonce = randomBytes(16).toString('base64');
        return pageHeaders(reply, embedPolicy(view, nonce)).send(embedPage(view, options, await assets.all(), nonce));
      },
    });
  }

  app.get(`${PLAYER_ASSETS_PREFIX}/:digest/:name`, {
    config: { videoAccess: 'public' },
    schema: { hide: true, params: Type.Object({ digest: Type.String({ maxLength: 64 }), name: Type.String({ maxLength: 64 }) }) },
    handler: async (req, reply) => {
      const asset = await assets.find(req.params.digest, req.params.name);
      if (!asset) return pageHeaders(reply.code(404), ERROR_PAGE_POLICY).send(embedErrorPage(404, 'No such file.'));
      return reply
        .type(asset.contentType)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .send(asset.bytes);
    },
  });
}
