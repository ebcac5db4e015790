import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { Int64 } from '../../../../schemas/common.js';
import { OperatorAccount, OperatorAccountCreate, OperatorAccountCreated, OperatorBalance } from '../../../../schemas/operator.js';

const tags = ['Operator'];

export default function operatorAccountRoutes(app: Api) {
  app.post('/accounts', {
    schema: {
      operationId: 'operatorCreateAccount',
      summary: 'Create an account with a full-access personal API key',
      tags,
      body: OperatorAccountCreate,
      response: { 201: OperatorAccountCreated, ...errorResponses },
    },
    handler: async (req, reply) => {
      const { account, apiKey } = await app.services.operator.createAccount(req.body.Name);
      return reply.code(201).send({ Id: account.id, Name: account.name, ApiKey: apiKey });
    },
  });

  app.get('/accounts', {
    schema: { operationId: 'operatorListAccounts', summary: 'List every account', tags, response: { 200: Type.Array(OperatorAccount), ...errorResponses } },
    handler: () => app.services.operator.listAccounts(),
  });

  app.post('/accounts/:id/balance', {
    schema: {
      operationId: 'operatorSetBalance',
      summary: 'Set the funds of an account (0 or less stops its pull zones)',
      tags,
      params: Type.Object({ id: Int64({ minimum: 1, description: 'Account id.' }) }),
      body: OperatorBalance,
      response: { 200: OperatorAccount, ...errorResponses },
    },
    handler: (req) => app.services.operator.setBalance(req.params.id, req.body.Balance),
  });
}
