import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { IdParams } from '../../../../schemas/ids.js';
import { TranscribingStatistics, VideoLibraryStatisticsRange } from '../../../../schemas/video-library-statistics.js';

export default function videoLibraryTranscribingStatistics(app: Api) {
  app.get('/videolibrary/:id/transcribing/statistics', {
    config: { access: 'read' },
    schema: {
      operationId: 'getVideoLibraryTranscribingStatistics',
      summary: 'Seconds of video a library transcribed, day by day (0 until videos exist)',
      tags: ['Video libraries'],
      params: IdParams('video library'),
      querystring: VideoLibraryStatisticsRange,
      response: { 200: TranscribingStatistics, ...errorResponses },
    },
    handler: (req) => app.services.videoLibraryStatistics.transcribing(req.principal, req.params.id, req.query),
  });
}
