import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { User } from '../../../../schemas/account.js';

export default function getUser(app: Api) {
  app.get('/user', {
    config: { access: 'read' },
    schema: {
      operationId: 'getUser',
      summary: "Read the account's details as the platform's user record has them",
      description:
        "Not in the platform's public reference, but its command-line client calls it. An edgeplane account has a name, funds and a creation date; " +
        'the other fields are derived from them (see the README).',
      tags: ['Account'],
      response: { 200: User, ...errorResponses },
    },
    handler: (req) => app.services.users.get(req.principal),
  });
}
