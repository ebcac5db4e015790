import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { CloseAccountRequest, CloseAccountResponse } from '../../../../schemas/account.js';

export default function closeAccount(app: Api) {
  app.post('/user/closeaccount', {
    // The account, and its audit log with it, is gone once this answers.
    config: { access: 'write', audit: false },
    schema: {
      operationId: 'closeAccount',
      summary: 'Close the account: delete everything it owns, files included; its keys stop working at once',
      description:
        'Confirm with `Password`: the value of a full-access API key of the account (the one making the request will do); anything else is a 400 ' +
        'naming `Password` and changes nothing. Then every container application, video library, DNS zone, pull zone and storage zone (with its ' +
        'files) is deleted, every API key revoked, and the account removed with its ledger and audit log.',
      tags: ['Account'],
      body: CloseAccountRequest,
      response: { 200: CloseAccountResponse, ...errorResponses },
    },
    handler: async (req) => {
      await app.services.accountClosure.close(req.principal, req.body.Password);
      return { Success: true, Message: 'The account is closed.' };
    },
  });
}
