// The Admin UI's figures for the bench: the gzipped JavaScript the first page loads (target ≤ 350 KB)
// and the time from navigation to a rendered dashboard over 10,000 stored events in headless Chromium
// (target ≤ 1.5 s). Usage: node ui/dist/bench/ui-bench.js [--events N]. Prints one JSON line.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { parseArgs } from 'node:util';
import { createEventRepository, createSecurityEvent, openDatabase, type SecurityEvent } from '@palisade/core';
import { launchChromium } from '@palisade/core/testing/browser';
import { DEFAULT_WEB_ROOT } from '../server/ui-server.js';
import { startStack } from '../testing/stack.js';

/** The entry script and the chunks index.html preloads: what the browser fetches before it can render. */
export function firstPageJsGzipBytes(webRoot = DEFAULT_WEB_ROOT): number {
  const html = readFileSync(join(webRoot, 'index.html'), 'utf8');
  const files = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
  return files.reduce((sum, file) => sum + gzipSync(readFileSync(join(webRoot, file)), { level: 9 }).length, 0);
}

const TYPES = [
  { event_type: 'REQUEST_BLOCKED', decision: 'BLOCK', severity: 'CRITICAL' },
  { event_type: 'REQUEST_SANITIZED', decision: 'SANITIZE', severity: 'HIGH' },
  { event_type: 'PII_DETECTED', decision: 'SANITIZE', severity: 'MEDIUM' },
  { event_type: 'MONITOR_ALERT', decision: 'MONITOR_ONLY', severity: 'HIGH' },
] as const;

async function seed(dataDir: string, count: number) {
  const db = await openDatabase({ dataDir, migrate: true });
  const events = createEventRepository<SecurityEvent>(db);
  const now = Date.now();
  for (let i = 0; i < count; i++) {
    const kind = TYPES[i % TYPES.length]!;
    const at = new Date(now - Math.floor((i / count) * 23 * 3600_000));
    await events.insert(createSecurityEvent({ tenant_id: 'dev-test', trace_id: `bench-${i}`, ...kind }, at));
  }
  await db.close();
}

async function main() {
  const { values } = parseArgs({ options: { events: { type: 'string', default: '10000' } } });
  const count = Number(values.events);
  const jsGzip = firstPageJsGzipBytes();
  const dataDir = mkdtempSync(join(tmpdir(), 'palisade-ui-bench-'));
  await seed(dataDir, count);
  const stops: Array<() => void> = [];
  try {
    const urls = await startStack((stop) => stops.push(stop), { PALISADE_DATA_DIR: dataDir });
    const browser = await launchChromium();
    try {
      const runs: number[] = [];
      for (let i = 0; i < 3; i++) {
        const page = await browser.newPage();
        const started = Date.now();
        await page.goto(urls.ui!);
        await page.waitForFunction(() => {
          const text = (globalThis as unknown as { document: { querySelector(s: string): { textContent: string | null } | null } }).document.querySelector('[data-testid="total-requests"] p:last-child')?.textContent;
          return text !== undefined && text !== null && /^\d+$/.test(text) && Number(text) > 0;
        }, undefined, { timeout: 60_000 });
        await page.locator('.recharts-surface').first().waitFor();
        runs.push(Date.now() - started);
        await page.close();
      }
      runs.sort((a, b) => a - b);
      console.log(JSON.stringify({ ui_first_page_js_gzip_kb: Math.round(jsGzip / 1024), ui_dashboard_ms_median: runs[1], ui_dashboard_ms_runs: runs, events: count }));
    } finally {
      await browser.close();
    }
  } finally {
    for (const stop of stops) stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
