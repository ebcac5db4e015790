/**
 * The pages the edge writes itself (unknown host, a refused request, an origin that failed), under
 * the zone's error page settings: `ErrorPageEnableCustomCode` with `ErrorPageCustomCode` replaces
 * the page with the zone's own HTML (whatever the status), and `ErrorPageWhitelabel` leaves
 * edgeplane's name off the default page. The status widget (`ErrorPageEnableStatusWidget`) needs a
 * status page service edgeplane does not have: it is not shown.
 */
import type { EdgeZone } from './types.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

export function errorPage(status: number, title: string, reason: string, zone: EdgeZone | undefined): string {
  if (zone?.ErrorPageEnableCustomCode && zone.ErrorPageCustomCode) return zone.ErrorPageCustomCode;
  const heading = `${status} ${escapeHtml(title)}`;
  const footer = zone?.ErrorPageWhitelabel ? '' : '\n<hr><p><small>edgeplane edge</small></p>';
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${heading}</title></head>
<body>
<h1>${heading}</h1>
<p>${escapeHtml(reason)}</p>${footer}
</body></html>
`;
}
