/**
 * The preloading screen (src/domain/edge/preloader/), around the fetch step of a miss or a pass.
 * For a browser loading a page of a zone with `PreloadingScreenEnabled`:
 *
 * - the origin is asked as always; when its answer comes within `PreloadingScreenDelay` ms, it is
 *   the answer, and there is no screen;
 * - when it does not, the edge answers at once 529 with the screen (never cached) and the cookie
 *   `edgeplane_preload` naming the origin's answer to come, which it holds (held-answers.ts);
 * - the screen's script asks for the page again with that cookie, and gets the held answer: what
 *   the origin answered, or the 502/504 page when it failed or never answered in its timeout;
 * - with `PreloadingScreenShowOnFirstVisit`, a visitor without the `edgeplane_visited` cookie
 *   gets the screen at once, however fast the origin, and the screen sets that cookie (a year) so
 *   later pages show it only when slow.
 *
 * A request with an `edgeplane_preload` cookie that names nothing held here (expired, held by
 * another instance) asks the origin itself and gets no second screen. Cached answers never get
 * here: a hit shows no screen.
 */
import type { Readable } from 'node:stream';
import { wantsPreloader } from '../../domain/edge/preloader/eligibility.js';
import { HeldAnswers, type HeldLimits } from '../../domain/edge/preloader/held-answers.js';
import { preloaderPage } from '../../domain/edge/preloader/page.js';
import { cookieOf } from '../../domain/edge/policy/url-parts.js';
import { canonicalIpText } from '../../security/ip-list.js';
import { type DeliverDeps, deliverSynth } from './deliver.js';
import type { Delivery } from './delivery.js';
import type { Admitted } from './types.js';

export const PRELOAD_COOKIE = 'edgeplane_preload';
export const VISIT_COOKIE = 'edgeplane_visited';
/** The platform's status for its preloading screen. */
export const PRELOADER_STATUS = 529;

const YEAR_SECONDS = 365 * 24 * 3600;
/** Long enough for any origin timeout and the hold: a cookie that names nothing any more does no harm. */
const PRELOAD_COOKIE_SECONDS = 15 * 60;
/** Paths a cookie's Path attribute can carry as they are; any other path gets `/`. */
const COOKIE_PATH = /^\/[\x21-\x2b\x2d-\x3a\x3c-\x7e]*$/;

export class Preloading {
  private readonly held: HeldAnswers<Delivery>;

  constructor(limits: HeldLimits) {
    this.held = new HeldAnswers<Delivery>(limits, { bytesOf: (d) => (Buffer.isBuffer(d.body) ? d.body.length : 0), discard });
  }

  /** Answers held for a follow-up (tests look). */
  get heldCount(): number {
    return this.held.size;
  }

  /** The answer to a miss or a pass of a zone with the screen on: `fetch`'s, or the screen while `fetch` goes on. */
  serve(deps: DeliverDeps, admitted: Admitted, fetch: () => Promise<Delivery>): Promise<Delivery> {
    const { request, routed } = admitted;
    const url = `${routed.id} ${request.host} ${request.path}?${request.query}`;
    const client = canonicalIpText(request.clientIp);
    const token = cookieOf(request, PRELOAD_COOKIE);
    if (token !== undefined) {
      const held = this.held.take(token, client, url);
      if (held === undefined) return fetch();
      return held.then(
        (delivery) => followUp(delivery, admitted),
        (error: unknown) => {
          admitted.admission.release();
          throw error;
        },
      );
    }
    if (!wantsPreloader(request, admitted.path)) return fetch();
    const delivery = fetch();
    const zone = routed.zone;
    if (zone.PreloadingScreenShowOnFirstVisit && cookieOf(request, VISIT_COOKIE) === undefined) {
      return Promise.resolve(this.screen(deps, admitted, client, url, delivery) ?? delivery);
    }
    return new Promise<Delivery>((resolve, reject) => {
      let settled = false;
      const timer = setTimeout(() => {
        settled = true;
        const screen = this.screen(deps, admitted, client, url, delivery);
        if (screen) resolve(screen);
        else delivery.then(resolve, reject);
      }, zone.PreloadingScreenDelay);
      delivery.then(
        (d) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve(d);
        },
        (error: unknown) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          reject(error);
        },
      );
    });
  }

  /** The screen, the origin's answer held for the follow-up; undefined when there is no room to hold it. */
  private screen(deps: DeliverDeps, admitted: Admitted, client: string, url: string, delivery: Promise<Delivery>): Delivery | undefined {
    const { request, routed } = admitted;
    const token = this.held.hold(client, url, delivery.then(paused));
    if (token === undefined) return undefined;
    const secure = request.scheme === 'https';
    const cookies = [setCookie(PRELOAD_COOKIE, token, cookiePathOf(request.path), PRELOAD_COOKIE_SECONDS, secure)];
    if (routed.zone.PreloadingScreenShowOnFirstVisit) cookies.push(setCookie(VISIT_COOKIE, '1', '/', YEAR_SECONDS, secure));
    const page = preloaderPage(routed.zone);
    const headers: Record<string, string | string[]> = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'set-cookie': cookies };
    if (page.policy) headers['content-security-policy'] = page.policy;
    return deliverSynth(deps, admitted, { kind: 'answer', status: PRELOADER_STATUS, headers, body: Buffer.from(page.html) });
  }
}

/** The held answer as the follow-up's: the cookie cleared, and the follow-up's own admission given back with it. */
function followUp(held: Delivery, admitted: Admitted): Delivery {
  const previous = held.headers['set-cookie'];
  const cookies = previous === undefined ? [] : Array.isArray(previous) ? previous : [previous];
  const cleared = setCookie(PRELOAD_COOKIE, '', cookiePathOf(admitted.request.path), 0, admitted.request.scheme === 'https');
  return {
    ...held,
    headers: { ...held.headers, 'set-cookie': [...cookies, cleared] },
    done: (bytes) => {
      held.done(bytes);
      admitted.admission.release();
    },
  };
}

/** A streamed body waits paused for its follow-up (the origin's connection holds the rest back). */
function paused(delivery: Delivery): Delivery {
  if (delivery.body !== undefined && !Buffer.isBuffer(delivery.body)) delivery.body.pause();
  return delivery;
}

/** An answer no follow-up came for: its stream closed, its request reported as abandoned. */
function discard(delivery: Delivery): void {
  if (delivery.body !== undefined && !Buffer.isBuffer(delivery.body)) (delivery.body as Readable).destroy();
  delivery.throttle?.destroy();
  delivery.done(0);
}

const cookiePathOf = (path: string) => (COOKIE_PATH.test(path) ? path : '/');

function setCookie(name: string, value: string, path: string, maxAge: number, secure: boolean): string {
  return `${name}=${value}; Path=${path}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}
