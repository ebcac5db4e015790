/**
 * The admit step's DDoS protection (src/domain/edge/ddos/): what a client above its zone's
 * threshold gets, as an answer of the edge's own: the challenge (a page for a browser's GET of a
 * page, a line of text for anything else), or the zone's 429 page when it is far above.
 */
import type { DdosGuard } from '../../domain/edge/ddos/guard.js';
import { challengeAnswer } from '../../domain/edge/ddos/challenge-page.js';
import type { EdgeRequest, EdgeZone } from '../../domain/edge/types.js';
import type { Synth } from './types.js';

export function floodAnswer(guard: DdosGuard, zone: EdgeZone, request: EdgeRequest): Synth | undefined {
  const verdict = guard.check(zone, request);
  if (verdict === undefined) return undefined;
  if (verdict.kind === 'refuse') return { kind: 'page', status: 429, reason: 'Too many requests from your address; try again shortly.' };
  const browser = request.method === 'GET' && (request.headers['accept'] ?? '').includes('text/html');
  return { kind: 'answer', ...challengeAnswer(verdict.challenge, verdict.passSeconds, browser) };
}
