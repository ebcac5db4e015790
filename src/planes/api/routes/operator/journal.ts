import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { JournalPage, JournalQuery } from '../../../../schemas/journal.js';

const tags = ['Operator'];

export default function operatorJournalRoutes(app: Api) {
  app.get('/journal', {
    schema: {
      operationId: 'operatorGetJournal',
      summary: 'The last requests this instance served (EDGEPLANE_JOURNAL_SIZE), newest first',
      tags,
      querystring: JournalQuery,
      response: { 200: JournalPage, ...errorResponses },
    },
    handler: (req) => ({ capacity: app.journal.capacity, entries: app.journal.list(req.query) }),
  });

  app.delete('/journal', {
    schema: {
      operationId: 'operatorClearJournal',
      summary: 'Empty the request journal',
      tags,
      response: { 204: Type.Null({ description: 'Journal emptied.' }), ...errorResponses },
    },
    handler: async (_req, reply) => {
      app.journal.clear();
      return reply.code(204).send(null);
    },
  });
}
