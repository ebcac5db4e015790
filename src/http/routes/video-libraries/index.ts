import type { Api } from '../../api.js';
import createVideoLibrary from './create.js';
import getVideoLibrary from './get.js';

export default function videoLibraryRoutes(app: Api) {
  createVideoLibrary(app);
  getVideoLibrary(app);
}
