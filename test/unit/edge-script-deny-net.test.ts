/**
 * What an edge script's Deno process is denied (deny-net.ts): edgeplane's own listeners on every
 * address that reaches them, and this host's own private IPv6 addresses when private addresses
 * are denied. The list is checked as written, then given to a real Deno process that tries to
 * reach a listener on all addresses through each of this machine's interface addresses.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OriginAddresses } from '../../src/domain/edge/origin/addresses.js';
import { deniedNet } from '../../src/domain/edge/scripts/runtime/deny-net.js';
import { denoBinary } from '../../src/domain/edge/scripts/runtime/script-process.js';

const INTERFACES = {
  lo: [{ address: '127.0.0.1', netmask: '255.0.0.0', family: 'IPv4', mac: '', internal: true, cidr: '127.0.0.1/8' }],
  eth0: [
    { address: '192.0.2.2', netmask: '255.255.255.0', family: 'IPv4', mac: '', internal: false, cidr: '192.0.2.2/24' },
    { address: 'fd00::2', netmask: 'ffff:ffff:ffff:ffff::', family: 'IPv6', mac: '', internal: false, cidr: 'fd00::2/64', scopeid: 0 },
    { address: 'fe80::1', netmask: 'ffff:ffff:ffff:ffff::', family: 'IPv6', mac: '', internal: false, cidr: 'fe80::1/64', scopeid: 2 },
    { address: '2001:db8::2', netmask: 'ffff:ffff:ffff:ffff::', family: 'IPv6', mac: '', internal: false, cidr: '2001:db8::2/64', scopeid: 0 },
  ],
} as const;
const interfaces = INTERFACES as unknown as NodeJS.Dict<import('node:os').NetworkInterfaceInfo[]>;

describe('the deny list of an edge script', () => {
  it("names edgeplane's own ports on every address of this host when it listens on all of them", () => {
    const list = deniedNet(new OriginAddresses({ privateAddresses: 'allow', listenHost: '::', ownPorts: [8080] }), interfaces);
    for (const own of ['127.0.0.1:8080', '[::1]:8080', 'localhost:8080', '192.0.2.2:8080', '[fd00::2]:8080', '[fe80::1]:8080', '[2001:db8::2]:8080']) {
      expect(list).toContain(own);
    }
    // Private addresses allowed: this host's are reachable, on other ports.
    expect(list).not.toContain('[fd00::2]');
  });

  it('names only the listening address (and loopback) when it listens on one', () => {
    const list = deniedNet(new OriginAddresses({ privateAddresses: 'allow', listenHost: '192.0.2.2', ownPorts: [8080] }), interfaces);
    expect(list).toContain('192.0.2.2:8080');
    expect(list).toContain('127.0.0.1:8080');
    expect(list).not.toContain('[fd00::2]:8080');
  });

  it("denies this host's private IPv6 addresses whole when private addresses are denied, and its own ports on public ones", () => {
    const list = deniedNet(new OriginAddresses({ privateAddresses: 'deny', listenHost: '0.0.0.0', ownPorts: [8080] }), interfaces);
    expect(list).toEqual(expect.arrayContaining(['10.0.0.0/8', '127.0.0.0/8', '[fd00::2]', '[fe80::1]', '[2001:db8::2]:8080', '192.0.2.2:8080']));
    expect(list).not.toContain('[2001:db8::2]');
    expect(new Set(list).size).toBe(list.length);
  });
});

/** This machine's addresses other than loopback, as URL hosts. */
const outside = Object.values(networkInterfaces())
  .flatMap((list) => list ?? [])
  .filter((i) => !i.internal && !(i.family === 'IPv6' && i.address.startsWith('fe80')))
  .map((i) => (i.family === 'IPv6' ? `[${i.address}]` : i.address));

describe.skipIf(outside.length === 0)(
  `a Deno process with the list${outside.length === 0 ? ' (skipped: this machine has no address but loopback)' : ''}`,
  () => {
    let server: Server;
    let port: number;
    beforeAll(async () => {
      server = createServer((_req, res) => res.end('edgeplane'));
      await new Promise<void>((resolve) => server.listen(0, '::', resolve));
      port = (server.address() as AddressInfo).port;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    /** What Deno's fetch of each of this machine's addresses gives, with `denied` as its deny list. */
    const reach = async (denied: string[]) => {
      const code = `for (const host of ${JSON.stringify(outside)}) {
      try { const r = await fetch("http://" + host + ":${port}/", { signal: AbortSignal.timeout(2000) }); console.log(host, await r.text()); }
      catch (e) { console.log(host, (e as Error).name); }
    }`;
      // `deno eval` runs with every permission: a file, run with exactly these flags.
      const dir = await mkdtemp(join(tmpdir(), 'edgeplane-deny-net-'));
      try {
        await writeFile(join(dir, 'reach.ts'), code);
        const flags = ['--quiet', '--no-config', '--allow-net', ...(denied.length > 0 ? [`--deny-net=${denied.join(',')}`] : [])];
        const { stdout } = await promisify(execFile)(denoBinary(), ['run', ...flags, join(dir, 'reach.ts')], { timeout: 20_000 });
        return stdout.trim().split('\n');
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    };

    it("reaches edgeplane's listener through none of them, as it does without the list", async () => {
      const addresses = new OriginAddresses({ privateAddresses: 'allow', listenHost: '::', ownPorts: [port] });
      expect(await reach([])).toEqual(outside.map((host) => `${host} edgeplane`));
      expect(await reach(deniedNet(addresses))).toEqual(outside.map((host) => `${host} NotCapable`));
    });
  },
);
