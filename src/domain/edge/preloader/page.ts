/**
 * The preloading screen's HTML: the zone's logo (`PreloadingScreenLogoUrl`, an http(s) URL, else
 * none) on the light or dark theme (`PreloadingScreenTheme`), or the zone's own HTML
 * (`PreloadingScreenCode` with `PreloadingScreenCodeEnabled`) with the edge's script where it says
 * `{{preloader_script}}` (at its end when it does not say so: without the script the screen would
 * never go).
 *
 * The script loads the page again at once: the browser keeps the screen up until the answer, which
 * the edge holds for that request (the cookie the screen came with names it). A browser refusing
 * cookies could not be told from a first visit, so there the script fetches the page as a script
 * (no screen for `X-Requested-With`) and writes it in.
 */
import { escapeHtml, inlineSource } from '../../html.js';
import type { EdgeZone } from '../types.js';

export const SCRIPT_PLACEHOLDER = '{{preloader_script}}';

export const PRELOADER_SCRIPT = `(function () {
if (navigator.cookieEnabled) { setTimeout(function () { location.reload(); }, 10); return; }
fetch(location.href, { headers: { 'X-Requested-With': 'preloader' }, credentials: 'same-origin' })
  .then(function (r) { return r.text(); })
  .then(function (html) { document.open(); document.write(html); document.close(); });
})();`;

const THEMES = {
  light: { background: '#ffffff', text: '#333333', track: '#e6e6e6', accent: '#555555' },
  dark: { background: '#121212', text: '#e6e6e6', track: '#333333', accent: '#cccccc' },
};

function styleOf(theme: (typeof THEMES)['light']): string {
  return (
    `html,body{height:100%;margin:0}body{display:flex;flex-direction:column;align-items:center;justify-content:center;gap:1.5rem;` +
    `background:${theme.background};color:${theme.text};font:15px system-ui,sans-serif}img{max-width:60vw;max-height:30vh}` +
    `.spinner{width:2.5rem;height:2.5rem;border:.25rem solid ${theme.track};border-top-color:${theme.accent};border-radius:50%;animation:spin .8s linear infinite}` +
    '@keyframes spin{to{transform:rotate(360deg)}}'
  );
}

const STYLES = { light: styleOf(THEMES.light), dark: styleOf(THEMES.dark) };
const SCRIPT_SOURCE = inlineSource(PRELOADER_SCRIPT);
const policyFor = (style: string) =>
  `default-src 'none'; img-src http: https: data:; style-src ${inlineSource(style)}; script-src ${SCRIPT_SOURCE}; connect-src 'self'; base-uri 'none'; form-action 'none'`;
const POLICIES = { light: policyFor(STYLES.light), dark: policyFor(STYLES.dark) };

export interface PreloaderPage {
  html: string;
  /** The page's Content-Security-Policy (none on a zone's own page). */
  policy: string | undefined;
}

export function preloaderPage(zone: EdgeZone): PreloaderPage {
  const script = `<script>${PRELOADER_SCRIPT}</script>`;
  if (zone.PreloadingScreenCodeEnabled && zone.PreloadingScreenCode) {
    const code = zone.PreloadingScreenCode;
    return { html: code.includes(SCRIPT_PLACEHOLDER) ? code.split(SCRIPT_PLACEHOLDER).join(script) : `${code}\n${script}`, policy: undefined };
  }
  const theme = zone.PreloadingScreenTheme === 1 ? 'dark' : 'light';
  const logo = logoUrl(zone.PreloadingScreenLogoUrl);
  const html = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">
<title>Loading&hellip;</title><style>${STYLES[theme]}</style></head>
<body>
${logo ? `<img src="${escapeHtml(logo)}" alt="">\n` : ''}<div class="spinner" role="status" aria-label="Loading"></div>
${script}
</body></html>
`;
  return { html, policy: POLICIES[theme] };
}

/** The logo's URL when it is an absolute http(s) one. */
function logoUrl(value: string | null): string | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}
