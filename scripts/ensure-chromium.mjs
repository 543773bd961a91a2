// Browser tests drive Debian's Chromium with playwright-core (no browser download). This installs the
// Debian package when it is missing and we can (root with apt-get); otherwise it says why the browser
// tests will skip. Prints nothing when the browser is there. Exported for run-tests.mjs.
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

export const CHROMIUM_PATH = process.env.PALISADE_CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Returns undefined when Chromium is usable, else the reason the browser tests cannot run. */
export function ensureChromium(log = console.log) {
  if (existsSync(CHROMIUM_PATH)) return undefined;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = existsSync('/usr/bin/apt-get');
  if (!isRoot || !hasApt) {
    return `${CHROMIUM_PATH} is missing and cannot be installed here (${!hasApt ? 'no apt-get' : 'not root'}); install Debian's chromium package`;
  }
  log('[palisade] installing Debian chromium for the browser tests (apt-get)…');
  try {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env });
  } catch (err) {
    return `apt-get install chromium failed: ${err instanceof Error ? err.message : String(err)}`;
  }
  return existsSync(CHROMIUM_PATH) ? undefined : `apt-get installed chromium but ${CHROMIUM_PATH} is still missing`;
}
