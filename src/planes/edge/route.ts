/**
 * The route step: which pull zone serves the request's hostname (routing/directory.ts: from memory
 * once the hostname was seen, a promise only the first time). Where no zone serves it, the edge
 * answers on its own, with no zone to count for: an unknown hostname 404, a DNS `Redirect` record
 * 301, and an ACME HTTP-01 challenge it published 200 (unless the zone answers its own challenges:
 * DisableBuiltInCertificateIssuance, and its origin is asked).
 */
import { errorPage } from '../../domain/edge/error-pages.js';
import type { EdgeDirectory, Route } from '../../domain/edge/routing/directory.js';
import type { EdgeRequest, HttpChallenges } from '../../domain/edge/types.js';
import { type Delivery, plainDelivery } from './delivery.js';

export type Routing = Extract<Route, { kind: 'zone' }> | { kind: 'answered'; delivery: Delivery };

const ACME_PREFIX = '/.well-known/acme-challenge/';

export function route(directory: EdgeDirectory, challenges: HttpChallenges | undefined, request: EdgeRequest): Routing | Promise<Routing> {
  const challenge = challenges && request.path.startsWith(ACME_PREFIX) ? challenges.answer(request.host, request.path) : undefined;
  const found = directory.route(request.host);
  if (found instanceof Promise) return found.then((f) => routing(f, request, challenge));
  return routing(found, request, challenge);
}

function routing(found: Route | undefined, request: EdgeRequest, challenge: string | undefined): Routing {
  if (challenge !== undefined && !(found?.kind === 'zone' && found.zone.zone.DisableBuiltInCertificateIssuance)) {
    return answered(plainDelivery(200, { 'content-type': 'text/plain', server: 'edgeplane' }, challenge));
  }
  if (found === undefined) {
    const page = errorPage({ status: 404, reason: `No pull zone serves the hostname ${request.host}.` }, undefined);
    const headers = { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': page.policy!, server: 'edgeplane' };
    return answered(plainDelivery(404, headers, page.html));
  }
  if (found.kind === 'redirect') return answered(plainDelivery(301, { location: found.location, server: 'edgeplane' }, ''));
  return found;
}

const answered = (delivery: Delivery): Routing => ({ kind: 'answered', delivery });
