/** What the video API reports: play data, heatmap, statistics, renditions, storage sizes. */
import { Type } from 'typebox';
import { errors } from '../../../domain/errors.js';
import { DateTime } from '../../../schemas/common.js';
import { Heatmap, PlayData, ResolutionsAnswer, StorageSizeAnswer, VideoStatistics } from '../../../schemas/video-reports.js';
import { errorAnswers, LibraryParams, type VideoApi, VideoParams } from '../video-api.js';

const PlayQuery = Type.Object({
  token: Type.Optional(Type.String({ maxLength: 200, description: 'Embed token, when the library asks for one.' })),
  expires: Type.Optional(Type.Integer({ description: 'Expiry of the embed token (Unix seconds).' })),
});

export default function reportRoutes(app: VideoApi) {
  const tags = ['Reports'];
  app.get('/library/:libraryId/videos/:videoId/play', {
    config: { videoAccess: 'read' },
    schema: {
      operationId: 'Video_GetVideoPlayData',
      summary: 'Get what a player needs to play a video',
      tags,
      params: VideoParams,
      querystring: PlayQuery,
      response: { 200: PlayData, ...errorAnswers },
    },
    handler: (req) => app.services.videoReports.playData(req.library, req.params.videoId),
  });
  // The platform's reference declares the play data model for this one too.
  app.get('/library/:libraryId/videos/:videoId/play/heatmap', {
    config: { videoAccess: 'read' },
    schema: {
      operationId: 'Video_GetVideoHeatmapData',
      summary: 'Get the heatmap data of a video',
      tags,
      params: VideoParams,
      querystring: PlayQuery,
      response: { 200: PlayData, ...errorAnswers },
    },
    handler: (req) => app.services.videoReports.playData(req.library, req.params.videoId),
  });
  app.get('/library/:libraryId/videos/:videoId/heatmap', {
    config: { videoAccess: 'read' },
    schema: {
      operationId: 'Video_GetVideoHeatmap',
      summary: 'Get the heatmap of a video',
      tags,
      params: VideoParams,
      response: { 200: Heatmap, ...errorAnswers },
    },
    handler: (req) => app.services.videoPlays.heatmap(req.library, req.params.videoId),
  });
  app.get('/library/:libraryId/statistics', {
    config: { videoAccess: 'read' },
    schema: {
      operationId: 'Video_GetVideoStatistics',
      summary: 'Get views and watch time',
      tags,
      params: LibraryParams,
      querystring: Type.Object({
        dateFrom: Type.Optional(DateTime({ description: 'Start of the period (UTC); default: 30 days before its end.' })),
        dateTo: Type.Optional(DateTime({ description: 'End of the period (UTC); default: now.' })),
        hourly: Type.Boolean({ default: false, description: 'Hours instead of days.' }),
        videoGuid: Type.Optional(Type.String({ maxLength: 64, description: 'Only this video.' })),
      }),
      response: { 200: VideoStatistics, ...errorAnswers },
    },
    handler: (req) => {
      const { dateFrom, dateTo } = req.query;
      if (dateFrom && dateTo && Date.parse(dateFrom) > Date.parse(dateTo)) throw errors.validation('dateFrom', 'The dateFrom must not be after dateTo.');
      return app.services.videoPlays.statistics(req.library, req.query);
    },
  });
  app.get('/library/:libraryId/videos/:videoId/resolutions', {
    config: { videoAccess: 'read' },
    schema: {
      operationId: 'Video_GetVideoResolutions',
      summary: 'List the renditions of a video',
      tags,
      params: VideoParams,
      response: { 200: ResolutionsAnswer, ...errorAnswers },
    },
    handler: (req) => app.services.videoReports.resolutions(req.library, req.params.videoId),
  });
  app.get('/library/:libraryId/videos/:videoId/storage', {
    config: { videoAccess: 'read' },
    schema: {
      operationId: 'Video_GetVideoStorageSize',
      summary: 'Get the storage a video takes',
      tags,
      params: VideoParams,
      response: { 200: StorageSizeAnswer, ...errorAnswers },
    },
    handler: (req) => app.services.videoReports.storageSize(req.library, req.params.videoId),
  });
}
