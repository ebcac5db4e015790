/**
 * The embed page's HTML: the video element with its captions tracks and poster, the controls the
 * library lists in `Controls` (labelled in its UI language), its colours and captions style, and
 * the player's settings as a JSON data block that assets/player/player.js reads. No inline script
 * runs: the Content-Security-Policy allows scripts from this origin only, styles from it and the
 * one nonced block of the library's colours, and media from the pull zone's origin only.
 */
import { escapeHtml } from '../../../domain/html.js';
import type { EmbedView } from '../../../domain/videos/embed.js';
import type { PlayerAsset, PlayerAssetName } from './assets.js';
import { type PlayerLabels, playerLabels } from './labels.js';

/** The options a site puts in the embed address (`?autoplay=true&t=90`). */
export interface EmbedOptions {
  autoplay: boolean;
  muted: boolean;
  loop: boolean;
  /** `preload=false` loads nothing before play; the default loads the start. */
  preload: boolean;
  /** Where to start, in seconds (`t=90`, `t=1m30s`). */
  startTime: number;
  /** The captions track shown from the start (`captions=en`). */
  captions: string | undefined;
}

type AssetUrls = Map<PlayerAssetName, PlayerAsset>;

/** A CSS colour the library set, when it is one of the plain forms (`#f75`, `#ff7755cc`, `red`, `rgb(…)`/`hsl(…)`); else the default. */
function cssColor(value: string | null, fallback: string): string {
  const text = (value ?? '').trim();
  return /^(#[0-9a-fA-F]{3,8}|[a-zA-Z]{3,30}|(rgb|rgba|hsl|hsla)\([0-9.,%\s/]{1,60}\))$/.test(text) ? text : fallback;
}

function cssFontFamily(value: string | null): string {
  const text = (value ?? '').trim();
  return /^[A-Za-z0-9 ,'"-]{1,100}$/.test(text) ? `${text}, sans-serif` : 'system-ui, sans-serif';
}

/** The speeds offered: the library's list (`0.5,1,2`) read as numbers between 0.1 and 16, 1 always among them. */
export function playbackSpeeds(list: string | null): number[] {
  const speeds = (list ?? '')
    .split(',')
    .map((s) => Number(s.trim()))
    .filter((n) => Number.isFinite(n) && n >= 0.1 && n <= 16);
  return [...new Set([...speeds, 1])].sort((a, b) => a - b);
}

/** The controls that are a button: the word on it, and its glyph. */
const BUTTONS: Record<string, [keyof PlayerLabels, string]> = {
  play: ['play', '&#9654;'],
  rewind: ['rewind', '&#8634;'],
  'fast-forward': ['fastForward', '&#8635;'],
  mute: ['mute', '&#128266;'],
  captions: ['captions', 'CC'],
  pip: ['pip', '&#10697;'],
  airplay: ['airplay', '&#9650;'],
  fullscreen: ['fullscreen', '&#9974;'],
};
const OTHER_CONTROLS = ['play-large', 'progress', 'current-time', 'duration', 'volume', 'settings'];

/** The controls the library lists, in its order, that this player has. */
export function playerControls(list: string | null): string[] {
  const known = new Set([...Object.keys(BUTTONS), ...OTHER_CONTROLS]);
  return [...new Set((list ?? '').split(',').map((c) => c.trim().toLowerCase()))].filter((c) => known.has(c));
}

const button = (action: string, label: string, glyph: string) =>
  `<button type="button" class="control ${action}" data-action="${action}" aria-label="${escapeHtml(label)}" title="${escapeHtml(label)}"><span aria-hidden="true">${glyph}</span></button>`;

function controlMarkup(control: string, view: EmbedView, labels: PlayerLabels, speeds: number[]): string {
  const asButton = BUTTONS[control];
  // Captions only when the video has some.
  if (asButton) return control === 'captions' && view.captions.length === 0 ? '' : button(control, labels[asButton[0]], asButton[1]);
  switch (control) {
    case 'progress':
      return `<input type="range" class="control progress" data-action="seek" min="0" max="${Math.max(1, view.play.video.length)}" step="0.1" value="0" aria-label="${escapeHtml(labels.seek)}">`;
    case 'current-time':
      return '<span class="control current-time" data-role="current-time">0:00</span>';
    case 'duration':
      return `<span class="control duration" data-role="duration">${clock(view.play.video.length)}</span>`;
    case 'volume':
      return `<input type="range" class="control volume" data-action="volume" min="0" max="1" step="0.05" value="1" aria-label="${escapeHtml(labels.volume)}">`;
    case 'settings':
      return `<select class="control speed" data-action="speed" aria-label="${escapeHtml(labels.speed)}" title="${escapeHtml(labels.speed)}">${speeds
        .map((s) => `<option value="${s}"${s === 1 ? ' selected' : ''}>${s}&times;</option>`)
        .join('')}</select>`;
    default:
      return '';
  }
}

const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, '0')}`;

/** The page's Content-Security-Policy. */
export function embedPolicy(view: EmbedView, nonce: string): string {
  const media = view.playbackOrigin || "'none'";
  // The sites AllowedReferrers names may frame it (host sources, `*.example.com` as in the lists); any, when it names none.
  const framers = view.allowedFramers.length > 0 ? ["'self'", ...view.allowedFramers.filter((h) => /^(\*\.)?[a-z0-9.-]+$/i.test(h))].join(' ') : '*';
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src 'self' 'nonce-${nonce}'`,
    `img-src ${media} data:`,
    // hls.js hands the video element a MediaSource, as a blob: address.
    `media-src ${media} blob:`,
    `connect-src ${media}`,
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${framers}`,
  ].join('; ');
}

export function embedPage(view: EmbedView, options: EmbedOptions, assets: AssetUrls, nonce: string): string {
  const play = view.play;
  const { lang, labels } = playerLabels(play.uiLanguage);
  const speeds = playbackSpeeds(play.playbackSpeeds);
  const controls = playerControls(play.controls);
  const captionsSize = Math.min(96, Math.max(8, play.captionsFontSize || 20));
  const style = [
    `:root{--key-color:${cssColor(play.playerKeyColor, '#ff7755')};--font-family:${cssFontFamily(play.fontFamily)}}`,
    `video::cue{color:${cssColor(play.captionsFontColor, '#fff')};background:${cssColor(play.captionsBackground, '#000')};font-size:${captionsSize}px;font-family:${cssFontFamily(play.fontFamily)}}`,
  ].join('');
  const config = {
    guid: play.video.guid,
    source: view.source,
    fallbackUrl: play.fallbackUrl,
    startTime: options.startTime,
    autoplay: options.autoplay,
    rememberPosition: play.rememberPlayerPosition,
    labels,
  };
  const tracks = view.captions
    .map(
      (c) =>
        `<track kind="captions" srclang="${escapeHtml(c.srclang)}" label="${escapeHtml(c.label)}" src="${escapeHtml(c.url)}"${c.srclang === options.captions ? ' default' : ''}>`,
    )
    .join('');
  const videoAttributes = [
    'playsinline',
    // Captions tracks from the pull zone need CORS; the original file (early play) has no extension the zone answers with CORS.
    view.source.kind === 'playlist' ? 'crossorigin="anonymous"' : '',
    `preload="${options.preload ? 'metadata' : 'none'}"`,
    `poster="${escapeHtml(play.thumbnailUrl)}"`,
    options.autoplay ? 'autoplay' : '',
    options.muted ? 'muted' : '',
    options.loop ? 'loop' : '',
  ].filter((a) => a !== '');
  const bar = controls.filter((c) => c !== 'play-large').map((c) => controlMarkup(c, view, labels, speeds));
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(play.video.title ?? '')}</title>
<link rel="stylesheet" href="${assets.get('player.css')!.path}">
<style nonce="${nonce}">${style}</style>
<script type="application/json" id="player-config">${JSON.stringify(config).replace(/</g, '\\u003c')}</script>
<script src="${assets.get('hls.light.min.js')!.path}" defer></script>
<script src="${assets.get('player.js')!.path}" type="module"></script>
</head>
<body>
<div class="player${play.enableCompactControls ? ' compact' : ''}" id="player" data-engine="">
<video id="video" ${videoAttributes.join(' ')}>${tracks}</video>
${controls.includes('play-large') ? button('play-large', labels.play, '&#9654;') : ''}
<div class="controls">${bar.join('')}</div>
<p class="message" role="alert" hidden></p>
</div>
</body>
</html>
`;
}

/** A small page for a refusal or an error: what the viewer sees in the iframe instead of the player. */
export function embedErrorPage(status: number, message: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Video unavailable</title>
</head>
<body>
<p>${escapeHtml(message)}</p>
<p>(${status})</p>
</body>
</html>
`;
}

/** The error page's policy: nothing but the page itself. */
export const ERROR_PAGE_POLICY = "default-src 'none'; base-uri 'none'; form-action 'none'";
