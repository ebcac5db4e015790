/**
 * Where a registry is. The two public registries have fixed hosts; any other is named by its
 * `hostName` (an edgeplane extension): `host[:port]`, spoken to over HTTPS, or a URL with its
 * scheme, `http://` for a registry without TLS (a local one).
 */
import type { RegistryType } from '../../../schemas/container-registries.js';
import { errors } from '../../errors.js';

/** The host each registry type lives at; the platform's own registry has none in edgeplane. */
export const TYPE_HOSTS: Record<RegistryType, string | undefined> = {
  dockerHub: 'docker.io',
  gitHub: 'ghcr.io',
  vendorRegistry: undefined,
};

/** The keywords `registryId` takes for a public registry, read anonymously. */
export const PUBLIC_REGISTRIES: Record<string, { type: RegistryType; hostName: string }> = {
  dockerhub: { type: 'dockerHub', hostName: 'docker.io' },
  github: { type: 'gitHub', hostName: 'ghcr.io' },
};

/** Docker Hub's name and the host its API answers at differ. */
const API_HOSTS: Record<string, string> = { 'docker.io': 'registry-1.docker.io' };

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const HOST_NAME = new RegExp(`^(?:(https?)://)?(${LABEL}(?:\\.${LABEL})*|\\[[0-9a-f:.]+\\])(?::(\\d{1,5}))?/?$`);

/** Addresses that only make sense on the machine itself or its link, where cloud hosts keep their metadata services. */
const LINK_LOCAL = /^(?:169\.254\.\d{1,3}\.\d{1,3}|\[fe[89ab][0-9a-f]?:.*\])$/;

/**
 * A host name as stored (lower case, no trailing slash), or a 400 naming `field`. Link-local
 * addresses are refused: edgeplane would be asking the machine's own metadata service.
 */
export function normalHostName(input: string, field: string): string {
  const value = input.trim().toLowerCase();
  const match = HOST_NAME.exec(value);
  const port = match?.[3] === undefined ? undefined : Number(match[3]);
  if (!match || (port !== undefined && (port < 1 || port > 65535))) {
    throw errors.validation(field, `"${input}" is not a registry address: give host[:port], or http://host[:port] for a registry without TLS.`);
  }
  if (LINK_LOCAL.test(match[2]!)) throw errors.validation(field, 'A link-local address cannot be a registry.');
  return value.replace(/\/$/, '');
}

/** The base URL of a registry's API: `https://registry-1.docker.io`, `http://127.0.0.1:5000`. */
export function baseUrlOf(hostName: string): string {
  const match = HOST_NAME.exec(hostName);
  const scheme = match?.[1] ?? 'https';
  const host = match?.[2] ?? hostName;
  const port = match?.[3] === undefined ? '' : `:${match[3]}`;
  return `${scheme}://${API_HOSTS[host] ?? host}${port}`;
}
