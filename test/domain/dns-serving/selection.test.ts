/**
 * Which records of a set a query gets: weights, monitor results, smart routing.
 */
import { describe, expect, it } from 'vitest';
import { a, aaaa, ask, authority, cname, data, rec, zone } from './helpers.js';

/** A random source returning the given values in turn. */
const sequence = (...values: number[]) => {
  let i = 0;
  return () => values[i++ % values.length]!;
};

describe('weights', () => {
  const records = [a('w', '192.0.2.1', { Weight: 1 }), a('w', '192.0.2.2', { Weight: 3 }), a('w', '192.0.2.3', { Weight: 0 })];

  it('differing weights: one record per query, drawn with probability weight / total', async () => {
    // Total 4: [0, 0.25) → .1, [0.25, 1) → .2; the Weight 0 record is never drawn.
    const served = authority([zone('example.com', records)], { random: sequence(0, 0.2499, 0.25, 0.9999) });
    const drawn = [];
    for (let i = 0; i < 4; i++) drawn.push(data((await ask(served, 'w.example.com', 'A')).answers));
    expect(drawn).toEqual([['192.0.2.1'], ['192.0.2.1'], ['192.0.2.2'], ['192.0.2.2']]);
  });

  it('over many queries the shares follow the weights', async () => {
    const served = authority([zone('example.com', records)]);
    const counts = new Map<unknown, number>();
    for (let i = 0; i < 4000; i++) {
      const [address] = data((await ask(served, 'w.example.com', 'A')).answers);
      counts.set(address, (counts.get(address) ?? 0) + 1);
    }
    expect(counts.get('192.0.2.3')).toBeUndefined();
    expect(counts.get('192.0.2.2')! / 4000).toBeGreaterThan(0.7);
    expect(counts.get('192.0.2.2')! / 4000).toBeLessThan(0.8);
  });

  it('equal weights (0 or not): every record, as plain DNS', async () => {
    const served = authority([
      zone('example.com', [a('e', '192.0.2.1', { Weight: 5 }), a('e', '192.0.2.2', { Weight: 5 }), aaaa('z', '2001:db8::1'), aaaa('z', '2001:db8::2')]),
    ]);
    expect(data((await ask(served, 'e.example.com', 'A')).answers)).toEqual(['192.0.2.1', '192.0.2.2']);
    expect(data((await ask(served, 'z.example.com', 'AAAA')).answers)).toEqual(['2001:db8::1', '2001:db8::2']);
  });

  it('weighted CNAMEs: one target per query; equal weights: one, evenly', async () => {
    const served = authority(
      [
        zone('example.com', [
          cname('c', 'one.example.net', { Weight: 1 }),
          cname('c', 'two.example.net', { Weight: 9 }),
          cname('even', 'a.example.net'),
          cname('even', 'b.example.net'),
        ]),
      ],
      { random: sequence(0.05, 0.5, 0.4, 0.6) },
    );
    expect(data((await ask(served, 'c.example.com', 'CNAME')).answers)).toEqual(['one.example.net']);
    expect(data((await ask(served, 'c.example.com', 'CNAME')).answers)).toEqual(['two.example.net']);
    expect(data((await ask(served, 'even.example.com', 'CNAME')).answers)).toEqual(['a.example.net']);
    expect(data((await ask(served, 'even.example.com', 'CNAME')).answers)).toEqual(['b.example.net']);
  });

  it('other types keep every record; SRV carries its weight in its data', async () => {
    const served = authority([
      zone('example.com', [
        rec({ Type: 3, Name: 't', Value: 'one', Weight: 1 }),
        rec({ Type: 3, Name: 't', Value: 'two', Weight: 9 }),
        rec({ Type: 8, Name: '_s._tcp', Value: 'a.example.com', Priority: 1, Weight: 10, Port: 1 }),
        rec({ Type: 8, Name: '_s._tcp', Value: 'b.example.com', Priority: 1, Weight: 90, Port: 1 }),
      ]),
    ]);
    expect(data((await ask(served, 't.example.com', 'TXT')).answers)).toHaveLength(2);
    expect(data((await ask(served, '_s._tcp.example.com', 'SRV')).answers)).toEqual([
      { priority: 1, weight: 10, port: 1, target: 'a.example.com' },
      { priority: 1, weight: 90, port: 1, target: 'b.example.com' },
    ]);
  });

  it('records of one set with different TTLs are served at the lowest', async () => {
    const served = authority([zone('example.com', [a('t', '192.0.2.1', { Ttl: 60 }), a('t', '192.0.2.2', { Ttl: 3600 })])]);
    expect((await ask(served, 't.example.com', 'A')).answers!.map((r) => (r as { ttl: number }).ttl)).toEqual([60, 60]);
  });
});

describe('monitor status', () => {
  it('Offline records are left out while another record is Online or Unknown', async () => {
    const served = authority([
      zone('example.com', [
        a('m', '192.0.2.1', {}),
        { ...a('m', '192.0.2.2'), MonitorStatus: 2 },
        { ...a('m', '192.0.2.3'), MonitorStatus: 1 },
        { ...a('down', '192.0.2.4'), MonitorStatus: 2 },
        { ...a('down', '192.0.2.5'), MonitorStatus: 2 },
      ]),
    ]);
    expect(data((await ask(served, 'm.example.com', 'A')).answers)).toEqual(['192.0.2.1', '192.0.2.3']);
    // All Offline: serving nothing would hide the name; all are served.
    expect(data((await ask(served, 'down.example.com', 'A')).answers)).toEqual(['192.0.2.4', '192.0.2.5']);
  });

  it('weights are drawn among the records that are not Offline', async () => {
    const served = authority([zone('example.com', [{ ...a('w', '192.0.2.1', { Weight: 99 }), MonitorStatus: 2 }, a('w', '192.0.2.2', { Weight: 1 })])], {
      random: () => 0,
    });
    expect(data((await ask(served, 'w.example.com', 'A')).answers)).toEqual(['192.0.2.2']);
  });

  it('a monitor change takes effect with the zone update that carries it', async () => {
    const z = zone('example.com', [a('m', '192.0.2.1'), a('m', '192.0.2.2')]);
    const served = authority([z]);
    served.setZone({ ...z, records: z.records.map((r, i) => (i === 0 ? { ...r, MonitorStatus: 2 } : r)) });
    expect(data((await ask(served, 'm.example.com', 'A')).answers)).toEqual(['192.0.2.2']);
  });
});

describe('smart routing', () => {
  it('Latency and Geolocation records are all served: no location database to choose with', async () => {
    const served = authority([
      zone('example.com', [
        a('geo', '192.0.2.1', { SmartRoutingType: 2, GeolocationLatitude: 50, GeolocationLongitude: 8 }),
        a('geo', '192.0.2.2', { SmartRoutingType: 2, GeolocationLatitude: 40, GeolocationLongitude: -74 }),
        a('lat', '192.0.2.3', { SmartRoutingType: 1, LatencyZone: 'DE' }),
        a('lat', '192.0.2.4', { SmartRoutingType: 1, LatencyZone: 'NY' }),
      ]),
    ]);
    expect(data((await ask(served, 'geo.example.com', 'A')).answers)).toEqual(['192.0.2.1', '192.0.2.2']);
    expect(data((await ask(served, 'lat.example.com', 'A')).answers)).toEqual(['192.0.2.3', '192.0.2.4']);
  });
});
