/**
 * Global setup of the SQLite test run: the container tests (test/planes/edge/container-apps.test.ts)
 * run real containers with Debian's podman and runc, from a local registry (docker-registry, its
 * password file made with apache2-utils' htpasswd). A
 * machine that lacks them gets them installed here, in the background, so the suite does not wait:
 * the container tests wait for the install (podmanStatus in test/helpers/container-image.ts) and
 * skip, saying why, if it cannot be had.
 */
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';

export const PODMAN_TOOLS = ['/usr/bin/podman', '/usr/sbin/runc', '/usr/bin/docker-registry', '/usr/bin/htpasswd'];
/** Written while the install runs, and with its outcome once it ended. */
export const PODMAN_INSTALL_STATUS = '/tmp/edgeplane-podman-install.status';

export default function setup(): void {
  if (PODMAN_TOOLS.every((path) => existsSync(path))) return;
  if (process.getuid?.() !== 0) {
    writeFileSync(
      PODMAN_INSTALL_STATUS,
      'failed: not root, so podman, runc, docker-registry and htpasswd cannot be installed (apt-get install -y podman runc docker-registry apache2-utils)',
    );
    return;
  }
  writeFileSync(PODMAN_INSTALL_STATUS, 'installing');
  const install = spawn(
    'sh',
    [
      '-c',
      `(apt-get update && apt-get install -y podman runc docker-registry apache2-utils) >/dev/null 2>&1 && echo done > ${PODMAN_INSTALL_STATUS} || echo "failed: apt-get install -y podman runc docker-registry apache2-utils failed" > ${PODMAN_INSTALL_STATUS}`,
    ],
    { detached: true, stdio: 'ignore', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } },
  );
  install.unref();
}
