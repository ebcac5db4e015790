/** Where browsers reach a library's pull zone: the one place playback addresses get their scheme, host and port. */

/**
 * `template` is EDGEPLANE_PLAYBACK_URL (`https://{host}` by default, `http://{host}:8082` for a
 * local edge plane); `host` the pull zone's system hostname. Empty without a host (a library whose
 * pull zone is gone has no playback addresses).
 */
export function playbackOrigin(template: string, host: string): string {
  return host === '' ? '' : template.replace('{host}', host);
}
