import type { Api } from '../../api.js';
import operatorAccountRoutes from './accounts.js';
import operatorDnsZoneRoutes from './dns-zones.js';
import operatorFaultRoutes from './faults.js';
import operatorJournalRoutes from './journal.js';
import operatorMetricsRoute from './metrics.js';
import operatorPullZoneRoutes from './pull-zones.js';
import resetRoute from './reset.js';
import operatorVideoWebhookRoutes from './video-webhooks.js';

/** Registered under /_edgeplane/ behind the operator credential (see plugins/operator-auth.ts). */
export default function operatorRoutes(app: Api) {
  operatorAccountRoutes(app);
  operatorPullZoneRoutes(app);
  resetRoute(app);
  operatorMetricsRoute(app);
  operatorFaultRoutes(app);
  operatorJournalRoutes(app);
  operatorDnsZoneRoutes(app);
  operatorVideoWebhookRoutes(app);
}
