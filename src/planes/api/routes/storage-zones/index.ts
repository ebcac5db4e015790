import type { Api } from '../../api.js';
import checkStorageZoneAvailability from './check-availability.js';
import createStorageZone from './create.js';
import deleteStorageZone from './delete.js';
import getStorageZone from './get.js';
import listStorageZones from './list.js';
import resetStorageZonePassword from './reset-password.js';
import resetStorageZoneReadOnlyPassword from './reset-read-only-password.js';
import storageZoneStatistics from './statistics.js';
import updateStorageZone from './update.js';

export default function storageZoneRoutes(app: Api) {
  createStorageZone(app);
  listStorageZones(app);
  getStorageZone(app);
  updateStorageZone(app);
  deleteStorageZone(app);
  resetStorageZonePassword(app);
  resetStorageZoneReadOnlyPassword(app);
  checkStorageZoneAvailability(app);
  storageZoneStatistics(app);
}
