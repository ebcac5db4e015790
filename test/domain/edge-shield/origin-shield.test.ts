/**
 * Which instance is the origin shield: the one whose edge listener EDGEPLANE_ORIGIN_SHIELD_URL
 * names, by port and by an address it listens on (a name resolved once); and the setting's shape.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readConfig } from '../../../src/config.js';
import { OriginAddresses } from '../../../src/domain/edge/origin/addresses.js';
import { OriginShield } from '../../../src/domain/edge/shield/origin-shield.js';
import type { EdgeZone } from '../../../src/domain/edge/types.js';

/** An instance listening on `listenHost`, its edge on `port`, told the shield's URL; names resolve as `names` says. */
async function instance(url: string | undefined, listenHost: string, port: number, names: Record<string, string[]> = {}) {
  const addresses = new OriginAddresses({ privateAddresses: 'allow', listenHost, ownPorts: [] });
  const shield = new OriginShield({
    url,
    key: randomBytes(32),
    isOwnAddress: (address) => addresses.isOwnAddress(address),
    resolve: async (host) => {
      const found = names[host];
      if (found === undefined) throw new Error(`unknown host ${host}`);
      return found;
    },
  });
  await shield.listening(port);
  return shield;
}

const shielded = { Id: 1, EnableOriginShield: true } as EdgeZone;

describe('which instance is the shield', () => {
  it('is the one listening on the URL port at the URL address; the others send to it', async () => {
    expect((await instance('http://127.0.0.1:8082', '127.0.0.1', 8082)).isShield).toBe(true);
    const other = await instance('http://127.0.0.1:8082', '127.0.0.1', 9082);
    expect(other.isShield).toBe(false);
    expect(other.shieldFor(shielded)?.href).toBe('http://127.0.0.1:8082/');
    expect(other.shieldFor({ ...shielded, EnableOriginShield: false })).toBeUndefined();
  });

  it('reads the address as a listener reaches it: loopback for one listening everywhere, not another host', async () => {
    expect((await instance('http://127.0.0.5:8082', '0.0.0.0', 8082)).isShield).toBe(true);
    expect((await instance('http://localhost:8082', '127.0.0.1', 8082)).isShield).toBe(true);
    expect((await instance('http://192.0.2.10:8082', '127.0.0.1', 8082)).isShield).toBe(false);
    expect((await instance('http://[::1]:8082', '::1', 8082)).isShield).toBe(true);
    expect((await instance('http://127.0.0.1', '127.0.0.1', 80)).isShield).toBe(true);
  });

  it('resolves a host name once: the shield when one of its addresses is this host; another instance when not, or when it does not resolve', async () => {
    expect((await instance('http://shield.internal:8082', '0.0.0.0', 8082, { 'shield.internal': ['127.0.0.1'] })).isShield).toBe(true);
    expect((await instance('http://shield.internal:8082', '127.0.0.1', 8082, { 'shield.internal': ['192.0.2.10'] })).isShield).toBe(false);
    expect((await instance('http://nowhere.internal:8082', '127.0.0.1', 8082)).isShield).toBe(false);
  });

  it('with no URL, and before the edge listens, asks origins itself', async () => {
    const none = await instance(undefined, '127.0.0.1', 8082);
    expect([none.isShield, none.shieldFor(shielded)]).toEqual([true, undefined]);
    const early = new OriginShield({ url: 'http://127.0.0.1:8082', key: randomBytes(32), isOwnAddress: () => false });
    expect(early.shieldFor(shielded)).toBeUndefined();
  });
});

describe('EDGEPLANE_ORIGIN_SHIELD_URL', () => {
  it('takes an http URL of a host and port, and refuses anything else naming the variable', () => {
    expect(readConfig({ EDGEPLANE_ORIGIN_SHIELD_URL: 'http://10.0.0.5:8082' }).originShieldUrl).toBe('http://10.0.0.5:8082');
    expect(readConfig({ EDGEPLANE_ORIGIN_SHIELD_URL: 'http://[fd00::5]:8082/' }).originShieldUrl).toBe('http://[fd00::5]:8082/');
    expect(readConfig({ EDGEPLANE_ORIGIN_SHIELD_URL: 'http://shield.internal' }).originShieldUrl).toBe('http://shield.internal');
    expect(readConfig({}).originShieldUrl).toBeUndefined();
    for (const bad of ['https://10.0.0.5:8443', 'http://10.0.0.5:8082/path', '10.0.0.5:8082', 'http://', 'http://[::1:8082', 'http://user@host:1']) {
      expect(() => readConfig({ EDGEPLANE_ORIGIN_SHIELD_URL: bad })).toThrow(/EDGEPLANE_ORIGIN_SHIELD_URL/);
    }
  });
});
