import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { IdParams } from '../../../../schemas/ids.js';
import { DrmStatistics, VideoLibraryStatisticsRange } from '../../../../schemas/video-library-statistics.js';

export default function videoLibraryDrmStatistics(app: Api) {
  app.get('/videolibrary/:id/drm/statistics', {
    config: { access: 'read' },
    schema: {
      operationId: 'getVideoLibraryDrmStatistics',
      summary: 'DRM licenses a library issued, day by day (0 until videos exist)',
      tags: ['Video libraries'],
      params: IdParams('video library'),
      querystring: VideoLibraryStatisticsRange,
      response: { 200: DrmStatistics, ...errorResponses },
    },
    handler: (req) => app.services.videoLibraryStatistics.drm(req.principal, req.params.id, req.query),
  });
}
