/**
 * What a client above an active mode's threshold gets instead of the site (503, never cached): a
 * browser asking for a page gets a small page whose script solves the challenge (proof-of-work.ts)
 * in pure JavaScript (Web Crypto is missing on plain-HTTP pages), sets the pass cookie and loads
 * the page again; any other client gets a line of text saying why. The page runs nothing but its
 * own script and style (its Content-Security-Policy allows those two by hash).
 */
import { escapeHtml, inlineSource } from '../../html.js';
import { type Challenge, PASS_COOKIE } from './proof-of-work.js';

export const CHALLENGE_STATUS = 503;
/** Seconds a client without a browser is told to wait (`Retry-After`). */
const RETRY_AFTER_SECONDS = 10;

/**
 * SHA-256 of an ASCII string (the token and a decimal nonce) and the search for a nonce, as the
 * page runs them; exported so that a test runs the very same code against node:crypto.
 */
export const SOLVER_SOURCE = `
var K = [0x428a2f98,0x71374491,0xb5c0fbcf,0xe9b5dba5,0x3956c25b,0x59f111f1,0x923f82a4,0xab1c5ed5,0xd807aa98,0x12835b01,0x243185be,0x550c7dc3,
0x72be5d74,0x80deb1fe,0x9bdc06a7,0xc19bf174,0xe49b69c1,0xefbe4786,0x0fc19dc6,0x240ca1cc,0x2de92c6f,0x4a7484aa,0x5cb0a9dc,0x76f988da,0x983e5152,
0xa831c66d,0xb00327c8,0xbf597fc7,0xc6e00bf3,0xd5a79147,0x06ca6351,0x14292967,0x27b70a85,0x2e1b2138,0x4d2c6dfc,0x53380d13,0x650a7354,0x766a0abb,
0x81c2c92e,0x92722c85,0xa2bfe8a1,0xa81a664b,0xc24b8b70,0xc76c51a3,0xd192e819,0xd6990624,0xf40e3585,0x106aa070,0x19a4c116,0x1e376c08,0x2748774c,
0x34b0bcb5,0x391c0cb3,0x4ed8aa4a,0x5b9cca4f,0x682e6ff3,0x748f82ee,0x78a5636f,0x84c87814,0x8cc70208,0x90befffa,0xa4506ceb,0xbef9a3f7,0xc67178f2];
function sha256(s) {
  var n = s.length, words = (((n + 8) >> 6) + 1) * 16, m = new Int32Array(words), w = new Int32Array(64), i, b;
  for (i = 0; i < n; i++) m[i >> 2] |= s.charCodeAt(i) << (24 - (i & 3) * 8);
  m[n >> 2] |= 0x80 << (24 - (n & 3) * 8);
  m[words - 1] = n * 8;
  var h = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
  for (b = 0; b < words; b += 16) {
    for (i = 0; i < 16; i++) w[i] = m[b + i];
    for (i = 16; i < 64; i++) {
      var x = w[i - 15], y = w[i - 2];
      w[i] = (w[i - 16] + (((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3)) + w[i - 7] + (((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10))) | 0;
    }
    var a = h[0], c1 = h[1], c2 = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
    for (i = 0; i < 64; i++) {
      var t1 = (k + (((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))) + ((e & f) ^ (~e & g)) + K[i] + w[i]) | 0;
      var t2 = ((((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))) + ((a & c1) ^ (a & c2) ^ (c1 & c2))) | 0;
      k = g; g = f; f = e; e = (d + t1) | 0; d = c2; c2 = c1; c1 = a; a = (t1 + t2) | 0;
    }
    h[0] = (h[0] + a) | 0; h[1] = (h[1] + c1) | 0; h[2] = (h[2] + c2) | 0; h[3] = (h[3] + d) | 0;
    h[4] = (h[4] + e) | 0; h[5] = (h[5] + f) | 0; h[6] = (h[6] + g) | 0; h[7] = (h[7] + k) | 0;
  }
  return h;
}
function zeroBits(h) {
  for (var i = 0, bits = 0; i < 8; i++) { var z = Math.clz32(h[i]); bits += z; if (z < 32) break; }
  return bits;
}
function solve(token, bits, from, count) {
  for (var nonce = from; nonce < from + count; nonce++) if (zeroBits(sha256(token + nonce)) >= bits) return nonce;
  return -1;
}`;

/** Reads the challenge off the page, solves it a slice at a time (the page stays responsive), sets the pass and reloads. */
const SCRIPT = `(function () {${SOLVER_SOURCE}
var at = document.getElementById('challenge'), d = at.dataset, token = d.token, bits = Number(d.bits), from = 0;
function step() {
  var nonce = solve(token, bits, from, 20000);
  if (nonce < 0) { from += 20000; setTimeout(step, 0); return; }
  document.cookie = '${PASS_COOKIE}=' + d.issued + '.' + nonce + '; path=/; max-age=' + d.maxAge + '; samesite=lax' + (location.protocol === 'https:' ? '; secure' : '');
  if (document.cookie.indexOf('${PASS_COOKIE}=') < 0) { at.textContent = 'Turn on cookies for this site to continue.'; return; }
  location.reload();
}
setTimeout(step, 0);
})();`;

const STYLE =
  'body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#222;background:#f6f6f6}main{max-width:36rem;margin:15vh auto 0;padding:0 1.5rem}' +
  '@media (prefers-color-scheme:dark){body{color:#ddd;background:#161616}}';
const POLICY = `default-src 'none'; script-src ${inlineSource(SCRIPT)}; style-src ${inlineSource(STYLE)}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

export interface ChallengeAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** The challenge as the client can take it: the page for a browser's GET of a page, else text. */
export function challengeAnswer(challenge: Challenge, passSeconds: number, browser: boolean): ChallengeAnswer {
  const common = { 'cache-control': 'no-store', 'retry-after': String(RETRY_AFTER_SECONDS) };
  if (!browser) {
    const text = 'Too many requests from your address for this site: it is checking that they come from a browser. Open the page in one, or retry later.\n';
    return { status: CHALLENGE_STATUS, headers: { ...common, 'content-type': 'text/plain; charset=utf-8' }, body: Buffer.from(text) };
  }
  const html = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">
<title>One moment</title><style>${STYLE}</style></head>
<body><main>
<h1>One moment&hellip;</h1>
<p id="challenge" data-token="${escapeHtml(challenge.token)}" data-issued="${challenge.issued}" data-bits="${challenge.bits}" data-max-age="${passSeconds + 60}">This site gets many requests from your address. Your browser is showing it is one; the page loads in a few seconds.</p>
<noscript><p>Turn on JavaScript to continue.</p></noscript>
<script>${SCRIPT}</script>
</main></body></html>
`;
  return {
    status: CHALLENGE_STATUS,
    headers: { ...common, 'content-type': 'text/html; charset=utf-8', 'content-security-policy': POLICY },
    body: Buffer.from(html),
  };
}
