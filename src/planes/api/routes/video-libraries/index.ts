import type { Api } from '../../api.js';
import createVideoLibrary from './create.js';
import deleteVideoLibrary from './delete.js';
import getVideoLibrary from './get.js';
import listVideoLibraryLanguages from './languages.js';
import listVideoLibraries from './list.js';
import videoLibraryReferrers from './referrers.js';
import resetVideoLibraryKeys from './reset-keys.js';
import updateVideoLibrary from './update.js';

export default function videoLibraryRoutes(app: Api) {
  createVideoLibrary(app);
  listVideoLibraries(app);
  listVideoLibraryLanguages(app);
  getVideoLibrary(app);
  updateVideoLibrary(app);
  deleteVideoLibrary(app);
  resetVideoLibraryKeys(app);
  videoLibraryReferrers(app);
}
