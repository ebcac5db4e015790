/**
 * The edge's addresses by family (EDGEPLANE_EDGE_ADDRESSES): IPv6 is checked by the URL parser
 * rather than net.isIPv6 (whose regular expression costs every start ~4 ms to compile); both must
 * agree on every address, well-formed or not.
 */
import fc from 'fast-check';
import { isIPv4, isIPv6 } from 'node:net';
import { describe, expect, it } from 'vitest';
import { edgeAddresses } from '../../../src/domain/dns/serving/zone-index.js';

const expected = (addresses: string[]) => ({
  edge4: addresses.map((a) => a.trim()).filter((a) => isIPv4(a)),
  edge6: addresses.map((a) => a.trim()).filter((a) => isIPv6(a) && !a.includes('%')),
});

describe('edgeAddresses', () => {
  it('splits by family and drops what is no address, a zone index, or blank', () => {
    const addresses = ' 198.51.100.7, 2001:db8:e::7 ,not-an-address,,fe80::1%eth0,::ffff:192.0.2.1,[::1],1:2:3:4:5:6:7:8:9,::,@&/:,::1]/[::1'.split(',');
    expect(edgeAddresses(addresses)).toEqual({ edge4: ['198.51.100.7'], edge6: ['2001:db8:e::7', '::ffff:192.0.2.1', '::'] });
  });

  it('agrees with net.isIPv6 on any address, and on strings that nearly are one', () => {
    const nearly = fc
      .tuple(
        fc.oneof(fc.ipV6(), fc.ipV4(), fc.ipV4Extended()),
        fc.nat(40),
        fc.constantFrom('', ':', '::', '.', '0', 'g', '%1', ']', '[', ' ', 'ffff', '@', '/', '#', '?', '\\', 'x@[::1]/', '[::1]'),
      )
      .map(([address, at, insert]) => address.slice(0, at) + insert + address.slice(at));
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(fc.ipV6(), nearly, fc.string({ maxLength: 12 }), fc.string({ unit: fc.constantFrom(...':.0123456789abcdefABCDEFg@/[]%#?'), maxLength: 16 })),
          { maxLength: 6 },
        ),
        (addresses) => {
          expect(edgeAddresses(addresses)).toEqual(expected(addresses));
        },
      ),
      { numRuns: 3000 },
    );
  });
});
