import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { LogForwardingConfiguration, LogForwardingRequest } from '../../../../schemas/log-forwarding.js';

export default function createLogForwarding(app: Api) {
  app.post('/log/forwarding', {
    config: { access: 'write' },
    schema: {
      operationId: 'createLogForwardingConfiguration',
      summary: "Forward an application's logs to a syslog server (one configuration per application)",
      tags: ['Container applications'],
      body: LogForwardingRequest,
      response: { 201: LogForwardingConfiguration, ...errorResponses },
    },
    handler: async (req, reply) => reply.code(201).send(await app.services.containerApps.logForwarding.create(req.principal, req.body)),
  });
}
