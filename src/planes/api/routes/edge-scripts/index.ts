import type { Api } from '../../api.js';
import codeRoutes from './code.js';
import releaseRoutes from './releases.js';
import scriptRoutes from './scripts.js';
import secretRoutes from './secrets.js';
import statisticsRoutes from './statistics.js';
import variableRoutes from './variables.js';

/** The scripting API (23 operations under /compute/script). */
export default function edgeScriptRoutes(app: Api) {
  for (const register of [scriptRoutes, codeRoutes, releaseRoutes, variableRoutes, secretRoutes, statisticsRoutes]) register(app);
}
