/**
 * Global setup of the SQLite test run: the browser test (test/browser) drives the system's
 * Chromium, which a fresh Debian machine lacks. It is installed here, once, so that `npm test`
 * needs no manual step. Playwright's own browser download is not used: it needs the network at
 * test time and a second copy of a browser the system already packages.
 */
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const CHROMIUM = '/usr/bin/chromium';

/** How the browser tests start it: headless, nothing fetched behind the test's back. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export default function setup(): void {
  if (existsSync(CHROMIUM)) return;
  const sudo = process.getuid?.() === 0 ? '' : 'sudo -n ';
  try {
    // apt-get waits for the lock (a machine's own first-boot upgrades, another test's install) instead of failing on it.
    const apt = `${sudo}apt-get -o DPkg::Lock::Timeout=300`;
    execSync(`${apt} update && ${apt} install -y chromium`, {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  } catch (cause) {
    throw new Error(`The browser test needs ${CHROMIUM}; installing it failed. Run as root: apt-get install -y chromium`, { cause });
  }
  if (!existsSync(CHROMIUM)) throw new Error(`apt-get installed chromium, but ${CHROMIUM} is still missing.`);
}
