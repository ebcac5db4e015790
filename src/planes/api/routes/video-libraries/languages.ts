import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { VideoLibraryLanguage } from '../../../../schemas/video-library.js';

const LanguageList = Type.Array(VideoLibraryLanguage, { description: 'Every language the player or the transcriber supports.' });

export default function listVideoLibraryLanguages(app: Api) {
  app.get('/videolibrary/languages', {
    config: { access: 'read' },
    schema: {
      operationId: 'listVideoLibraryLanguages',
      summary: 'List the languages of the player interface and of automatic captions',
      tags: ['Video libraries'],
      response: { 200: LanguageList, ...errorResponses },
    },
    handler: () => app.services.videoLibraries.languages(),
  });
}
