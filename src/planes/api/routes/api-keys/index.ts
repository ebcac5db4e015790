import type { Api } from '../../api.js';
import createApiKey from './create.js';
import listApiKeys from './list.js';
import revokeApiKey from './revoke.js';

export default function apiKeyRoutes(app: Api) {
  listApiKeys(app);
  createApiKey(app);
  revokeApiKey(app);
}
