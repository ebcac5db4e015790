/**
 * Who may transfer zones (the DNS plane, transfer/), read from the operator's settings: `EDGEPLANE_DNS_SECONDARIES`
 * (`ip[:port]`, comma-separated; the port is where NOTIFY goes, 53 by default) and
 * `EDGEPLANE_DNS_TSIG_KEYS` (`algorithm:name:base64-secret`, comma-separated, the form `dig -y`
 * takes). A transfer needs both: an allowed address and a valid key. Problems are reported without
 * ever repeating a secret.
 */
import { isIP } from 'node:net';

export interface Secondary {
  address: string;
  /** Where NOTIFY is sent. */
  port: number;
}

export interface TsigKey {
  /** The key's name as on the wire: lower case, no final dot. */
  name: string;
  /** `hmac-sha256` and the like (RFC 8945 §6). */
  algorithm: TsigAlgorithm;
  secret: Buffer;
}

/** The algorithms taken, with the node:crypto hash of each. */
export const TSIG_ALGORITHMS = {
  'hmac-sha1': 'sha1',
  'hmac-sha224': 'sha224',
  'hmac-sha256': 'sha256',
  'hmac-sha384': 'sha384',
  'hmac-sha512': 'sha512',
} as const;
export type TsigAlgorithm = keyof typeof TSIG_ALGORITHMS;

const DEFAULT_NOTIFY_PORT = 53;

/** The list, or the first problem found in it (which entry, and why). */
export function parseSecondaries(text: string | undefined): Secondary[] {
  const out: Secondary[] = [];
  for (const [i, raw] of entries(text)) {
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(raw);
    const single = /^([^:]+)(?::(\d+))?$/.exec(raw);
    const [address, port] = bracketed ? [bracketed[1]!, bracketed[2]] : single ? [single[1]!, single[2]] : [raw, undefined];
    if (isIP(address) === 0) throw new Error(`entry ${i + 1} ("${raw}") is not an IP address, or ip:port ([ipv6]:port)`);
    const number = port === undefined ? DEFAULT_NOTIFY_PORT : Number(port);
    if (!Number.isInteger(number) || number < 1 || number > 65535) throw new Error(`entry ${i + 1} ("${raw}") has a port outside 1..65535`);
    out.push({ address: address.toLowerCase(), port: number });
  }
  return out;
}

export function parseTsigKeys(text: string | undefined): TsigKey[] {
  const out: TsigKey[] = [];
  for (const [i, raw] of entries(text)) {
    const [algorithm = '', name = '', secret, ...rest] = raw.split(':');
    const where = `entry ${i + 1}`;
    if (secret === undefined || rest.length > 0) throw new Error(`${where} is not algorithm:name:base64-secret`);
    const lowerAlgorithm = algorithm.toLowerCase().replace(/\.$/, '');
    if (!(lowerAlgorithm in TSIG_ALGORITHMS))
      throw new Error(`${where} names the algorithm "${algorithm}"; one of ${Object.keys(TSIG_ALGORITHMS).join(', ')} is needed`);
    const keyName = name.toLowerCase().replace(/\.$/, '');
    if (!/^[a-z0-9_-]+(\.[a-z0-9_-]+)*$/.test(keyName) || keyName.length > 253) throw new Error(`${where}: the key name "${name}" is not a domain name`);
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(secret) || secret.length % 4 !== 0) throw new Error(`${where} (key ${keyName}): the secret is not base64`);
    const bytes = Buffer.from(secret, 'base64');
    if (bytes.length < 16) throw new Error(`${where} (key ${keyName}): the secret has ${bytes.length} bytes; at least 16 are needed`);
    if (out.some((k) => k.name === keyName)) throw new Error(`${where}: the key name ${keyName} is given twice`);
    out.push({ name: keyName, algorithm: lowerAlgorithm as TsigAlgorithm, secret: bytes });
  }
  return out;
}

function entries(text: string | undefined): [number, string][] {
  return (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((s, i) => [i, s]);
}
