/**
 * The DDoS guard on its own clock: windows per client and zone (an IPv6 client by its /64), a
 * pass valid for its client, zone and time only, and the counts of what it did.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type DdosOutcome, DdosGuard } from '../../../src/domain/edge/ddos/guard.js';
import { ISSUE_MS, leadingZeroBits } from '../../../src/domain/edge/ddos/proof-of-work.js';
import { DDOS_WINDOW_MS } from '../../../src/domain/edge/ddos/thresholds.js';
import { request, zoneWith } from '../edge-policy/helpers.js';

const SETTINGS = { requestsPerWindow: 3, workBits: { standard: 6, aggressive: 8 }, passSeconds: 120 };

function guard(start = 1_000 * DDOS_WINDOW_MS) {
  let now = start;
  const counted: DdosOutcome[] = [];
  const g = new DdosGuard(SETTINGS, Buffer.alloc(32, 7), { counted: (_, outcome) => counted.push(outcome), detected: () => undefined }, () => now);
  return { g, counted, advance: (ms: number) => (now += ms) };
}

const solve = (token: string, bits: number) => {
  for (let nonce = 0; ; nonce++) if (leadingZeroBits(createHash('sha256').update(`${token}${nonce}`).digest()) >= bits) return nonce;
};

describe('the DDoS guard', () => {
  it('counts an IPv6 client by its /64, an IPv4 one by its address, each zone apart', () => {
    const { g } = guard();
    const zone = zoneWith({ ShieldDDosProtectionEnabled: true, ShieldDDosProtectionType: 1 });
    const other = zoneWith({ ShieldDDosProtectionEnabled: true, ShieldDDosProtectionType: 1 });
    for (const suffix of ['1', '2', '3']) expect(g.check(zone, request({ clientIp: `2001:db8:1:2::${suffix}` }))).toBeUndefined();
    expect(g.check(zone, request({ clientIp: '2001:db8:1:2:ffff::9' }))?.kind).toBe('challenge');
    expect(g.check(zone, request({ clientIp: '2001:db8:1:3::1' }))).toBeUndefined();
    expect(g.check(other, request({ clientIp: '2001:db8:1:2::1' }))).toBeUndefined();
    for (let i = 0; i < 3; i++) expect(g.check(zone, request({ clientIp: '::ffff:192.0.2.1' }))).toBeUndefined();
    expect(g.check(zone, request({ clientIp: '192.0.2.1' }))?.kind).toBe('challenge');
    expect(g.check(zone, request({ clientIp: '192.0.2.2' }))).toBeUndefined();
  });

  it('a pass works for its client and zone until passSeconds after its minute, and a new window forgets the count', () => {
    const { g, counted, advance } = guard();
    // A fixed id: the token is made of the zone, the client and the minute, and a nonce solving one
    // client's token also solves another's one time in 2^bits. With the id drawn from a counter that
    // other files in the worker move, that chance came up now and then; with this one it does not.
    const zone = zoneWith({ Id: 9001, ShieldDDosProtectionEnabled: true, ShieldDDosProtectionType: 1 });
    const client = request({ clientIp: '198.51.100.7' });
    for (let i = 0; i < 3; i++) g.check(zone, client);
    const verdict = g.check(zone, client);
    if (verdict?.kind !== 'challenge') throw new Error('expected a challenge');
    const { token, issued, bits } = verdict.challenge;
    const cookie = `edgeplane_pass=${issued}.${solve(token, bits)}`;
    const withPass = (ip: string) => request({ clientIp: ip, headers: { cookie } });
    expect(g.check(zone, withPass('198.51.100.7'))).toBeUndefined();
    // Another client over its threshold, with the same cookie: no pass.
    for (let i = 0; i < 3; i++) g.check(zone, request({ clientIp: '198.51.100.8' }));
    expect(g.check(zone, withPass('198.51.100.8'))?.kind).toBe('challenge');
    // Next window: under the threshold again, served without looking at the pass.
    advance(DDOS_WINDOW_MS);
    expect(g.check(zone, request({ clientIp: '198.51.100.7' }))).toBeUndefined();
    // Past the pass's end: challenged again.
    advance(ISSUE_MS + SETTINGS.passSeconds * 1000);
    for (let i = 0; i < 3; i++) g.check(zone, client);
    expect(g.check(zone, withPass('198.51.100.7'))?.kind).toBe('challenge');
    expect(counted).toEqual(['challenged', 'verified', 'challenged', 'challenged']);
  });
});
