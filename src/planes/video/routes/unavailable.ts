/**
 * Transcription and generated metadata need speech and language models this server does not
 * have: both answer as the platform answers a library without the feature, 400 (its "invalid
 * request for the transcription queue / the smart feature"), after the usual checks, so a client
 * sees the same error it would handle there.
 */
import { errors } from '../../../domain/errors.js';
import { Type } from 'typebox';
import { SmartGenerateBody, StatusAnswer, TranscribeBody } from '../../../schemas/video.js';
import { errorAnswers, type VideoApi, VideoParams } from '../video-api.js';

export default function unavailableRoutes(app: VideoApi) {
  const tags = ['Videos'];
  app.post('/library/:libraryId/videos/:videoId/transcribe', {
    config: { videoAccess: 'write' },
    schema: {
      operationId: 'Video_TranscribeVideo',
      summary: 'Transcribe a video (not available)',
      tags,
      params: VideoParams,
      querystring: Type.Object({ force: Type.Boolean({ default: false }) }),
      body: Type.Optional(TranscribeBody),
      response: { 200: StatusAnswer, ...errorAnswers },
    },
    handler: async (req) => {
      await app.services.videos.find(req.library, req.params.videoId);
      throw errors.invalid('Transcription is not available on this server.', 'video.transcription_unavailable');
    },
  });
  app.post('/library/:libraryId/videos/:videoId/smart', {
    config: { videoAccess: 'write' },
    schema: {
      operationId: 'Video_SmartGenerate',
      summary: 'Generate metadata (not available)',
      tags,
      params: VideoParams,
      body: Type.Optional(SmartGenerateBody),
      response: { 202: StatusAnswer, ...errorAnswers },
    },
    handler: async (req) => {
      await app.services.videos.find(req.library, req.params.videoId);
      throw errors.invalid('Generated titles, descriptions, chapters and moments are not available on this server.', 'video.smart_generate_unavailable');
    },
  });
}
