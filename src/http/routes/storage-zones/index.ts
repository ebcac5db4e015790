import type { Api } from '../../api.js';
import createStorageZone from './create.js';
import getStorageZone from './get.js';

export default function storageZoneRoutes(app: Api) {
  createStorageZone(app);
  getStorageZone(app);
}
