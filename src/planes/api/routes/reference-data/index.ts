import type { Api } from '../../api.js';
import listCountries from './countries.js';
import estimatePrice from './price-estimate.js';
import listRegions from './regions.js';
import listStorageRegions from './storage-regions.js';

export default function referenceDataRoutes(app: Api) {
  listRegions(app);
  listCountries(app);
  listStorageRegions(app);
  estimatePrice(app);
}
