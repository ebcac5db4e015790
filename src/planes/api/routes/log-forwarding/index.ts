import type { Api } from '../../api.js';
import createLogForwarding from './create.js';
import deleteLogForwarding from './delete.js';
import getLogForwarding from './get.js';
import listLogForwarding from './list.js';
import updateLogForwarding from './update.js';

/** Log forwarding of container applications; app.ts mounts it under /mc (and /). */
export default function logForwardingRoutes(app: Api) {
  for (const register of [listLogForwarding, createLogForwarding, getLogForwarding, updateLogForwarding, deleteLogForwarding]) register(app);
}
