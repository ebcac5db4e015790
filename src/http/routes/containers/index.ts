import type { Api } from '../../api.js';
import addTemplate from './add-template.js';
import createApp from './create-app.js';
import getApp from './get-app.js';
import replaceApp from './replace-app.js';
import updateEndpoint from './update-endpoint.js';

/** Container-application operations; app.ts mounts them under /mc (and /). */
export default function containerAppRoutes(app: Api) {
  createApp(app);
  getApp(app);
  replaceApp(app);
  addTemplate(app);
  updateEndpoint(app);
}
