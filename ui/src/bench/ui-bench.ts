// The Admin UI's figures for the bench: the gzipped JavaScript the first page loads (target ≤ 350 KB)
// and the time from navigation to a rendered dashboard over 10,000 stored events in headless Chromium
// (target ≤ 1.5 s). Usage: node ui/dist/bench/ui-bench.js [--events N]. Prints one JSON line.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { parseArgs } from 'node:util';
import { randomUUID } from 'node:crypto';
import { USAGE_LATENCY_BUCKETS, createEventRepository, createSecurityEvent, createUsageRepository, openDatabase, type SecurityEvent, type UsageRollup } from '@palisade/core';
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
  // The request figures come from the gateways' usage rollups: a minute row for each of the 23 hours,
  // REQUESTS_PER_MINUTE calls each, as an event writer stores them.
  const rollups: UsageRollup[] = [];
  const firstMinute = Math.floor(now / 60_000) * 60_000 - 23 * 3600_000;
  for (let minute = 0; minute < 23 * 60; minute++) {
    const buckets = Array.from({ length: USAGE_LATENCY_BUCKETS }, (_, i) => (i === 2 ? REQUESTS_PER_MINUTE : 0));
    rollups.push({
      minute: new Date(firstMinute + minute * 60_000).toISOString(),
      tenant_id: 'dev-test',
      provider_id: 'bench-provider',
      provider_name: 'bench',
      model: 'gpt-x',
      decision: 'ALLOW',
      status_class: '2xx',
      inspected: true,
      requests: REQUESTS_PER_MINUTE,
      usage_reported: REQUESTS_PER_MINUTE,
      input_tokens: REQUESTS_PER_MINUTE * 120,
      output_tokens: REQUESTS_PER_MINUTE * 300,
      latency_ms_sum: REQUESTS_PER_MINUTE * 180,
      latency_buckets: buckets,
    });
  }
  await createUsageRepository(db).storeBatch({ kind: 'usage', batch_id: randomUUID(), source: 'ui-bench', rollups });
  await db.close();
  return rollups.length * REQUESTS_PER_MINUTE;
}

const REQUESTS_PER_MINUTE = 30;

async function main() {
  const { values } = parseArgs({ options: { events: { type: 'string', default: '10000' } } });
  const count = Number(values.events);
  const jsGzip = firstPageJsGzipBytes();
  const dataDir = mkdtempSync(join(tmpdir(), 'palisade-ui-bench-'));
  const requests = await seed(dataDir, count);
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
        // Rendered means the figures of the seeded data are on the page, not only the page's frame.
        await page.waitForFunction(
          (expected) => {
            const text = (globalThis as unknown as { document: { querySelector(s: string): { textContent: string | null } | null } }).document.querySelector('[data-testid="total-requests"] [data-testid="total-value"]')?.textContent;
            return text === String(expected);
          },
          requests,
          { timeout: 60_000 },
        );
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
