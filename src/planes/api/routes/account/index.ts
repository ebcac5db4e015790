import type { Api } from '../../api.js';
import readAuditLog from './audit-log.js';
import closeAccount from './close-account.js';
import getUser from './get-user.js';

export default function accountRoutes(app: Api) {
  getUser(app);
  closeAccount(app);
  readAuditLog(app);
}
