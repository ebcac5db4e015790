/**
 * The pages the edge writes itself for an error (unknown host, a refused request, an origin that
 * could not be reached or did not answer), under the zone's error page settings:
 *
 * - the default page names the status, what happened and the request's id (`CDN-RequestId`, what
 *   a visitor quotes to the site's owner), with edgeplane's name at its foot;
 * - `ErrorPageWhitelabel` leaves the product's name off it;
 * - `ErrorPageEnableStatusWidget` adds the status page widget of `ErrorPageStatusCode`
 *   (status-widget.ts) below the message;
 * - `ErrorPageEnableCustomCode` with `ErrorPageCustomCode` replaces the page with the zone's own
 *   HTML, whatever the status, as it is (the owner's page: no policy of edgeplane's, no widget
 *   added; the owner embeds one there if they want it).
 *
 * A default page carries its Content-Security-Policy: nothing runs or loads but its own style and,
 * with the widget, the widget's origin.
 */
import { STATUS_CODES } from 'node:http';
import { escapeHtml, inlineSource } from '../html.js';
import { statusWidgetOf } from './status-widget.js';
import type { EdgeZone } from './types.js';

const STYLE =
  'body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#222;background:#f6f6f6}' +
  'main{max-width:40rem;margin:12vh auto 0;padding:0 1.5rem}h1{font-size:1.6rem;margin:0 0 .5rem}' +
  '.id{color:#666;font-size:.85rem;word-break:break-all}footer{max-width:40rem;margin:2rem auto;padding:0 1.5rem;color:#888;font-size:.8rem}' +
  '@media (prefers-color-scheme:dark){body{color:#ddd;background:#161616}.id{color:#999}}';
const STYLE_SOURCE = inlineSource(STYLE);
const PAGE_POLICY = `default-src 'none'; style-src ${STYLE_SOURCE}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

export interface ErrorPageInput {
  status: number;
  /** What happened, in a sentence (shown escaped). */
  reason: string;
  /** The answer's CDN-RequestId, when the request reached a zone. */
  requestId?: string | undefined;
}

export interface ErrorPage {
  html: string;
  /** The page's Content-Security-Policy (none on a zone's own page). */
  policy: string | undefined;
}

/**
 * The page for an error under the zone's settings (none for an unknown host); `statusWidgetScript`
 * is the status widget's script URL with `{code}` (EDGEPLANE_STATUS_WIDGET_SCRIPT; unset: no widget).
 */
export function errorPage(input: ErrorPageInput, zone: EdgeZone | undefined, statusWidgetScript?: string): ErrorPage {
  if (zone?.ErrorPageEnableCustomCode && zone.ErrorPageCustomCode) return { html: zone.ErrorPageCustomCode, policy: undefined };
  const heading = `${input.status} ${escapeHtml(STATUS_CODES[input.status] ?? 'Error')}`;
  const widget = zone?.ErrorPageEnableStatusWidget ? statusWidgetOf(statusWidgetScript, zone.ErrorPageStatusCode) : undefined;
  const id = input.requestId ? `\n<p class="id">Request ID: ${escapeHtml(input.requestId)}</p>` : '';
  const widgetHtml = widget ? `\n<div id="status-widget"></div>\n<script src="${escapeHtml(widget.script)}" async></script>` : '';
  const footer = zone?.ErrorPageWhitelabel ? '' : '\n<footer>edgeplane edge</footer>';
  const html = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${heading}</title>
<style>${STYLE}</style></head>
<body>
<main>
<h1>${heading}</h1>
<p>${escapeHtml(input.reason)}</p>${id}${widgetHtml}
</main>${footer}
</body></html>
`;
  return { html, policy: widget ? widgetPolicy(widget.origin) : PAGE_POLICY };
}

/**
 * With the widget: its origin may run its script, frame its badge, fetch the page's status and
 * style what it adds (a widget sets inline styles on the elements it inserts).
 */
function widgetPolicy(origin: string): string {
  return [
    "default-src 'none'",
    `script-src ${origin}`,
    `connect-src ${origin}`,
    `frame-src ${origin}`,
    `img-src ${origin} data:`,
    `style-src 'unsafe-inline' ${origin}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
