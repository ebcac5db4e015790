/**
 * SVCB and HTTPS rdata (RFC 9460) from the presentation form a record's Value holds
 * (`1 svc.example.com. alpn=h2,h3 port=8443`) to wire form. dns-packet does not know these types;
 * the authority hands it the octets as an unknown type. A value that breaks RFC 9460's rules
 * (unknown or repeated keys, a malformed value, an inconsistent `mandatory`) gives undefined: such
 * a record is not served, as a zone file loader would refuse it.
 */
import { isIPv4, isIPv6 } from 'node:net';
import { charStringOctets } from '../zone-text.js';
import { domainWire, genericRdata, isU16, valueList, words } from './presentation.js';

const KEYS: Record<string, number> = {
  mandatory: 0,
  alpn: 1,
  'no-default-alpn': 2,
  port: 3,
  ipv4hint: 4,
  ech: 5,
  ipv6hint: 6,
  dohpath: 7,
};

function keyNumber(name: string): number | undefined {
  const known = KEYS[name.toLowerCase()];
  if (known !== undefined) return known;
  const m = /^key(\d{1,5})$/i.exec(name);
  // key65535 is reserved as "invalid key" (RFC 9460 §14.3.2).
  return m && Number(m[1]) < 65535 ? Number(m[1]) : undefined;
}

const u16 = (n: number) => Buffer.from([n >> 8, n & 0xff]);

/** The wire value of one SvcParam; undefined when the value does not suit the key. */
function paramValue(key: number, raw: string | undefined): Buffer | undefined {
  if (key === 2) return raw === undefined ? Buffer.alloc(0) : undefined;
  if (raw === undefined) return undefined;
  const octets = charStringOctets(raw);
  if (octets === undefined) return undefined;
  switch (key) {
    case 0: {
      const names = valueList(octets);
      const numbers = names?.map((n) => keyNumber(n.toString('latin1')));
      if (!numbers || numbers.some((n) => n === undefined || n === 0)) return undefined;
      const sorted = (numbers as number[]).sort((a, b) => a - b);
      if (sorted.some((n, i) => i > 0 && n === sorted[i - 1])) return undefined;
      return Buffer.concat(sorted.map(u16));
    }
    case 1: {
      const ids = valueList(octets);
      if (!ids || ids.some((id) => id.length > 255)) return undefined;
      return Buffer.concat(ids.flatMap((id) => [Buffer.from([id.length]), id]));
    }
    case 3:
      return isU16(octets.toString('latin1')) ? u16(Number(octets.toString('latin1'))) : undefined;
    case 4:
    case 6: {
      const addresses = valueList(octets)?.map((a) => a.toString('latin1'));
      const valid = key === 4 ? isIPv4 : (a: string) => isIPv6(a) && !a.includes('%');
      if (!addresses?.every((a) => valid(a))) return undefined;
      return Buffer.concat(addresses.map((a) => (key === 4 ? ipv4Octets(a) : ipv6Octets(a))));
    }
    case 5: {
      const text = octets.toString('latin1');
      if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text) || text.length % 4 !== 0) return undefined;
      return Buffer.from(text, 'base64');
    }
    case 7:
      // dohpath (RFC 9461): a relative URI template, carried as UTF-8.
      return octets.length > 0 ? octets : undefined;
    default:
      return octets;
  }
}

/** The rdata of an SVCB or HTTPS record, or undefined when the value is not valid RFC 9460 text. */
export function svcbRdata(value: string): Buffer | undefined {
  const parts = words(value);
  if (!parts) return undefined;
  const generic = genericRdata(parts);
  if (generic) return generic;
  const [priority, target, ...params] = parts;
  if (!isU16(priority) || target === undefined) return undefined;
  const targetWire = domainWire(target);
  if (!targetWire) return undefined;

  const values = new Map<number, Buffer>();
  for (const param of params) {
    const eq = param.indexOf('=');
    const key = keyNumber(eq === -1 ? param : param.slice(0, eq));
    if (key === undefined || values.has(key)) return undefined;
    const wire = paramValue(key, eq === -1 ? undefined : param.slice(eq + 1));
    if (!wire) return undefined;
    values.set(key, wire);
  }
  if (!selfConsistent(values)) return undefined;

  const sorted = [...values.entries()].sort(([a], [b]) => a - b);
  return Buffer.concat([u16(Number(priority)), targetWire, ...sorted.flatMap(([key, wire]) => [u16(key), u16(wire.length), wire])]);
}

/** RFC 9460 §8: the keys `mandatory` names are present; §7.1.1: `no-default-alpn` needs `alpn`. */
function selfConsistent(values: Map<number, Buffer>): boolean {
  const mandatory = values.get(0);
  if (mandatory) {
    for (let i = 0; i < mandatory.length; i += 2) if (!values.has(mandatory.readUInt16BE(i))) return false;
  }
  return !values.has(2) || values.has(1);
}

const ipv4Octets = (address: string) => Buffer.from(address.split('.').map(Number));

/** An IPv6 address (checked by `isIPv6`, no zone index) as its 16 octets; a dotted IPv4 tail becomes two groups. */
export function ipv6Octets(address: string): Buffer {
  let text = address;
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${address.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const fill = tail === undefined ? 0 : 8 - left.length - right.length;
  const out = Buffer.alloc(16);
  const groups = [...left, ...new Array<string>(fill).fill('0'), ...right];
  for (let i = 0; i < 8; i++) out.writeUInt16BE(Number.parseInt(groups[i]!, 16), i * 2);
  return out;
}
