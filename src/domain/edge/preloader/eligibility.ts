/**
 * Which requests may get a zone's preloading screen (`PreloadingScreenEnabled`): a browser loading
 * a page, nothing else. A GET whose path has no extension or `.html`/`.htm`, that accepts
 * `text/html`, is no script's request (`X-Requested-With`), no range, no prefetch, no frame or
 * sub-resource (`Sec-Fetch-Dest`, `Sec-Fetch-Mode` when the browser sends them), not from a bot
 * (a crawler would index the screen), and not under a path that is an API's by convention.
 */
import { extensionOf } from '../policy/url-parts.js';
import type { EdgeRequest } from '../types.js';

const PAGE_EXTENSIONS = new Set(['', 'html', 'htm']);
/** Folders (the folder itself and all below it) an API answers under by convention. */
const API_FOLDERS = ['/api/', '/ajax/', '/graphql/', '/wp-json/', '/wp-admin/', '/.well-known/'];
/** User agents that are no person waiting: search and social crawlers, link previews, monitors, headless browsers, command-line clients. */
const NOT_A_VISITOR =
  /bot|crawl|spider|slurp|mediapartners|facebookexternalhit|embedly|preview|whatsapp|telegram|lighthouse|pingdom|uptime|monitor|headless|curl|wget|python|java\/|go-http|okhttp|axios|node-fetch|undici/i;

export function wantsPreloader(request: EdgeRequest, path: string): boolean {
  if (request.method !== 'GET' || !PAGE_EXTENSIONS.has(extensionOf(path))) return false;
  const { headers } = request;
  if (!(headers['accept'] ?? '').includes('text/html')) return false;
  if (headers['x-requested-with'] !== undefined || headers['range'] !== undefined) return false;
  if (headers['purpose'] !== undefined || headers['sec-purpose'] !== undefined) return false;
  const dest = headers['sec-fetch-dest'];
  const mode = headers['sec-fetch-mode'];
  if ((dest !== undefined && dest !== 'document') || (mode !== undefined && mode !== 'navigate')) return false;
  const agent = headers['user-agent'] ?? '';
  if (agent === '' || NOT_A_VISITOR.test(agent)) return false;
  const folder = `${path.toLowerCase()}/`;
  return !API_FOLDERS.some((prefix) => folder.startsWith(prefix));
}
