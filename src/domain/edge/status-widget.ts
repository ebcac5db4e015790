/**
 * The status widget an edge error page embeds (`ErrorPageEnableStatusWidget`): the script a status
 * page service serves for one status page, named by the zone's `ErrorPageStatusCode`. Which
 * service is the operator's choice (`EDGEPLANE_STATUS_WIDGET_SCRIPT`, a URL with `{code}` where the
 * code goes); unset, no page shows a widget.
 *
 * The code is the zone owner's text put into a URL and a page: only a DNS label's characters pass
 * (letters, digits, inner hyphens, at most 63), so it can name neither another host nor another
 * path, and the page never shows one that does not.
 */

/** Where the page loads the widget from, and the origin the page's policy lets it reach. */
export interface StatusWidget {
  script: string;
  origin: string;
}

const CODE = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;
export const CODE_PLACEHOLDER = '{code}';

/** The widget for a zone's code, or undefined when no service is set, the code is missing or not of the allowed form. */
export function statusWidgetOf(template: string | undefined, code: string | null | undefined): StatusWidget | undefined {
  if (!template || !code || !CODE.test(code)) return undefined;
  let url: URL;
  try {
    url = new URL(template.replace(CODE_PLACEHOLDER, code.toLowerCase()));
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  return { script: url.href, origin: url.origin };
}
