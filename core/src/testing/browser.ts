import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { Test } from 'tap';
import { servicesRequired } from './services.js';

/**
 * Browser tests drive Debian's Chromium through playwright-core: no browser is downloaded. `npm test`
 * installs the package when it can (scripts/ensure-chromium.mjs) and passes the reason in
 * PALISADE_BROWSER_SKIP_REASON when it cannot; in CI a missing browser fails instead of skipping.
 */
export const CHROMIUM_PATH = process.env.PALISADE_CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Where a failing browser test leaves its screenshot. */
export const SCREENSHOT_DIR = join(process.cwd(), '.tap', 'screenshots');

export function browserSkipReason(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const reason = env.PALISADE_BROWSER_SKIP_REASON || (existsSync(CHROMIUM_PATH) ? undefined : `${CHROMIUM_PATH} is missing`);
  if (reason && servicesRequired(env)) throw new Error(`browser tests must run here but cannot: ${reason}`);
  return reason;
}

// The closed network refuses Chromium's background connections (updates, sync, QUIC probes) many at a
// time, so every one of them is switched off; --no-sandbox because tests run as root.
const CHROMIUM_ARGS = [
  '--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--disable-dev-shm-usage',
];

export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/**
 * A tap subtest with a fresh page of its own browser: skipped with the reason when no browser can run
 * here (failing in CI instead), and leaving a full-page screenshot under .tap/screenshots when it fails.
 */
export async function browserTest(
  t: Test,
  name: string,
  body: (t: Test, page: Page, browser: Browser) => Promise<void>,
): Promise<void> {
  const skip = browserSkipReason() ?? false;
  await t.test(name, { skip: skip && `browser tests skipped: ${skip}` }, async (t) => {
    const browser = await launchChromium();
    t.teardown(() => browser.close());
    const page = await browser.newPage();
    try {
      await body(t, page, browser);
    } catch (err) {
      await saveScreenshot(page, name);
      throw err;
    }
    if (!t.passing()) await saveScreenshot(page, name);
  });
}

export async function saveScreenshot(page: Page, name: string): Promise<string | undefined> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = join(SCREENSHOT_DIR, `${name.replace(/[^\w.-]+/g, '_').slice(0, 100)}.png`);
  try {
    await page.screenshot({ path: file, fullPage: true });
    return file;
  } catch {
    return undefined;
  }
}
