/** Identifiers of container resources: applications, templates, endpoints, packages and pods. */
import { randomInt } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
export const CONTAINER_ID_LENGTH = 12;
export const CONTAINER_ID_PATTERN = /^[a-z0-9]{12}$/;

/**
 * A new container-resource id: 12 lowercase letters or digits (about 62 bits), drawn without bias
 * from the system CSPRNG so ids can't be guessed from one another.
 */
export function newContainerId(): string {
  let id = '';
  for (let i = 0; i < CONTAINER_ID_LENGTH; i++) id += ALPHABET[randomInt(ALPHABET.length)];
  return id;
}
