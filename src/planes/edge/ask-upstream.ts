/**
 * Where a fill (a miss, a refresh) gets its answer. For a zone with `EnableOriginShield` pulling
 * from an HTTP origin: from the origin shield (domain/edge/shield/), when another instance is it —
 * a signed GET to its edge, which answers from its cache or its own origin request; or from the
 * origin, when this instance is the shield (or there is none), under the zone's concurrency limit.
 * Otherwise, and for passes, straight from the origin (ask-origin.ts).
 *
 * A shield that cannot be reached (refused connection, unknown host) does not fail the request:
 * the origin is asked from here. One that was reached but did not answer in time is a 504.
 */
import { finished, type Readable } from 'node:stream';
import { fetchOrigin } from '../../domain/edge/origin/fetch.js';
import { originRequestHeaders } from '../../domain/edge/origin/headers.js';
import { SHIELD_HEADER } from '../../domain/edge/shield/hop-signature.js';
import { type OriginShield, retryAfterSeconds } from '../../domain/edge/shield/origin-shield.js';
import type { EdgeZone } from '../../domain/edge/types.js';
import type { FileService } from '../../domain/files/service.js';
import { askOrigin, type OriginAsk, type OriginOutcome, originFor } from './ask-origin.js';

export async function askForFill(files: FileService, shield: OriginShield | undefined, ask: OriginAsk & { shielded: boolean }): Promise<OriginOutcome> {
  const zone = ask.routed.zone;
  if (shield === undefined || !zone.EnableOriginShield || originFor(ask.routed, ask.effects).kind !== 'url') return askOrigin(files, ask);
  // A request that came through the shield is never sent through it again.
  const shieldUrl = ask.shielded ? undefined : shield.shieldFor(zone);
  if (shieldUrl !== undefined) return (await askShield(shield, shieldUrl, ask)) ?? askOrigin(files, ask);
  let turn = shield.turn(zone);
  if (turn instanceof Promise) turn = await turn;
  if (turn.kind === 'refused') {
    const why = turn.why === 'queue-full' ? 'its queue is full' : 'the request waited in its queue too long';
    return { ok: false, status: 503, message: `The origin shield holds back requests to this origin: ${why}.`, retryAfter: retryAfterSeconds(zone) };
  }
  const outcome = await askOrigin(files, ask).catch((error: unknown) => {
    turn.release();
    throw error;
  });
  // The origin request is in flight until its body has been read (or abandoned).
  if (outcome.ok && !Buffer.isBuffer(outcome.body)) finished(outcome.body as Readable, () => turn.release());
  else turn.release();
  return outcome;
}

/** The fill asked of the shield's edge; undefined when the shield cannot be reached. */
async function askShield(shield: OriginShield, url: URL, ask: OriginAsk): Promise<OriginOutcome | undefined> {
  const { routed, request, effects } = ask;
  const target = ask.query === '' ? ask.path : `${ask.path}?${ask.query}`;
  const headers = originRequestHeaders(routed.zone, request, effects, { originHost: url.host, requestId: ask.requestId, fillsCache: true });
  delete headers['content-length'];
  delete headers['transfer-encoding'];
  // The shield routes by the zone's hostname, and learns who the client was from what the proof covers.
  headers['host'] = request.host;
  headers['x-forwarded-for'] = request.clientIp;
  headers['x-forwarded-proto'] = request.scheme;
  headers[SHIELD_HEADER] = shield.signatures.sign({ zoneId: routed.id, method: 'GET', target, clientIp: request.clientIp, scheme: request.scheme }, Date.now());
  const result = await fetchOrigin(hopSettings(routed.zone), { url, target, method: 'GET', headers });
  result.report.viaShield = true;
  if (!result.ok) {
    if (result.failure === 'unreachable') return undefined;
    return { ok: false, status: 504, message: `The origin shield did not answer: ${result.message}.`, report: result.report };
  }
  return { ok: true, status: result.status, headers: result.headers, body: result.body, report: result.report };
}

const hopZones = new WeakMap<EdgeZone, EdgeZone>();

/**
 * The zone's origin settings for the hop to the shield: the shield follows redirects and retries
 * itself, and may keep a request in its queue before it asks the origin, so the hop waits that
 * much longer for the answer.
 */
function hopSettings(zone: EdgeZone): EdgeZone {
  let hop = hopZones.get(zone);
  if (hop === undefined) {
    const queued = zone.OriginShieldEnableConcurrencyLimit ? Math.max(0, zone.OriginShieldQueueMaxWaitTime) : 0;
    const answer = (zone.OriginResponseTimeout > 0 ? zone.OriginResponseTimeout : 60) + queued;
    hop = { ...zone, FollowRedirects: false, OriginRetries: 0, OriginResponseTimeout: answer };
    hopZones.set(zone, hop);
  }
  return hop;
}
