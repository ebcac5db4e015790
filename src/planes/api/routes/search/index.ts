import type { Api } from '../../api.js';
import search from './search.js';

export default function searchRoutes(app: Api) {
  search(app);
}
