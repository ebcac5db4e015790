import type { Api } from '../../api.js';
import configSuggestions from './config-suggestions.js';
import createRegistry from './create.js';
import deleteRegistry from './delete.js';
import getDigest from './get-digest.js';
import getImageConfig from './get-image-config.js';
import getRegistry from './get.js';
import listImages from './list-images.js';
import listTags from './list-tags.js';
import listRegistries from './list.js';
import searchPublicImages from './search-public-images.js';
import updateRegistry from './update.js';

/** Image registries of the container API; app.ts mounts them under /mc (and /). */
export default function containerRegistryRoutes(app: Api) {
  for (const register of [
    listRegistries,
    createRegistry,
    getRegistry,
    updateRegistry,
    deleteRegistry,
    // Questions asked of a registry
    searchPublicImages,
    listImages,
    listTags,
    getDigest,
    getImageConfig,
    configSuggestions,
  ]) {
    register(app);
  }
}
