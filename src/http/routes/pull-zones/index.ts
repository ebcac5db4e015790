import type { Api } from '../../api.js';
import createPullZone from './create.js';
import getPullZone from './get.js';

export default function pullZoneRoutes(app: Api) {
  createPullZone(app);
  getPullZone(app);
}
