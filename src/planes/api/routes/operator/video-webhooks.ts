import { Type } from 'typebox';
import { errors } from '../../../../domain/errors.js';
import { Int32, Int64 } from '../../../../schemas/common.js';
import { WebhookDeliveryPage } from '../../../../schemas/video-webhooks.js';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';

export default function operatorVideoWebhookRoutes(app: Api) {
  app.get('/videolibraries/:id/webhooks', {
    schema: {
      operationId: 'operatorVideoWebhooks',
      summary: "A video library's webhook deliveries and their attempts, newest first (any account)",
      tags: ['Operator'],
      params: Type.Object({ id: Int64({ minimum: 1, description: 'Video library id (any account).' }) }),
      querystring: Type.Object({
        offset: Type.Optional(Int32({ minimum: 0, default: 0, description: 'How many to skip.' })),
        limit: Type.Optional(Int32({ minimum: 1, maximum: 1000, default: 100, description: 'How many at most.' })),
      }),
      response: { 200: WebhookDeliveryPage, ...errorResponses },
    },
    handler: async (req) => {
      const page = await app.services.videoWebhooks.ofLibrary(req.params.id, req.query.offset ?? 0, req.query.limit ?? 100);
      if (!page) throw errors.notFound('video library');
      return { Items: page.items, TotalItems: page.total };
    },
  });
}
