import type { Api } from '../../api.js';
import createVideoLibrary from './create.js';
import deleteVideoLibrary from './delete.js';
import getVideoLibrary from './get.js';
import listVideoLibraryLanguages from './languages.js';
import listVideoLibraries from './list.js';
import videoLibraryReferrers from './referrers.js';
import resetVideoLibraryKeys from './reset-keys.js';
import updateVideoLibrary from './update.js';
import videoLibraryDrmStatistics from './drm-statistics.js';
import deleteVideoLibraryImages from './image-delete.js';
import readVideoLibraryImages from './image-read.js';
import { IMAGE_TYPES } from './image-slots.js';
import uploadVideoLibraryImages from './image-upload.js';
import videoLibraryTranscribingStatistics from './transcribing-statistics.js';
import { MAX_IMAGE_BYTES } from '../../../../domain/video-libraries/images.js';
import { readBinaryBodies } from '../../plugins/binary-body.js';

export default function videoLibraryRoutes(app: Api) {
  createVideoLibrary(app);
  listVideoLibraries(app);
  listVideoLibraryLanguages(app);
  getVideoLibrary(app);
  updateVideoLibrary(app);
  deleteVideoLibrary(app);
  resetVideoLibraryKeys(app);
  videoLibraryReferrers(app);
  readVideoLibraryImages(app);
  deleteVideoLibraryImages(app);
  videoLibraryTranscribingStatistics(app);
  videoLibraryDrmStatistics(app);
  // Image uploads are the one place the core API takes bytes: their own scope reads image bodies,
  // while the auth and binding hooks of the enclosing scope still run.
  void app.register(async (imageScope) => {
    readBinaryBodies(imageScope, IMAGE_TYPES, MAX_IMAGE_BYTES);
    uploadVideoLibraryImages(imageScope as unknown as Api);
  });
}
