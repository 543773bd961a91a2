// Report benchmark (run alone: `node hack/dist/bench/report-bench.js [--events N] [--days D]`): seeds a
// throw-away PostgreSQL database with N security events (default 1,000,000) and D days (default 30) of
// per-minute usage rollups, starts `palisade report-worker` in its own process, requests every report
// type as PDF and CSV, and reports how long each took from request to COMPLETED and the worker's peak
// RSS (VmHWM). Targets: each report ≤ 30 s, worker ≤ 256 MB.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { randomUUID } from 'node:crypto';
import { createReportRepository, openDatabase, REPORT_FORMATS, REPORT_TYPES, type Report } from '@palisade/core';
import { installCleanup, readMemory, spawnNode, stopAll } from './processes.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = join(ROOT, 'cli', 'dist', 'main.js');
const ADMIN_URL = process.env.PALISADE_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const TARGET_MS = 30_000;
const TARGET_RSS_MB = 256;

// Events spread over the period: a third PII findings, the rest the incident types and allowed calls.
const SEED_EVENTS = `
INSERT INTO security_events (id, trace_id, ts, event_type, severity, tenant_id, provider_id, profile_id, data)
SELECT id, 'tr-' || g, ts, type, CASE type WHEN 'JAILBREAK_DETECTED' THEN 'CRITICAL' WHEN 'PII_DETECTED' THEN 'MEDIUM' ELSE 'HIGH' END,
  'bench', provider, NULL,
  jsonb_build_object('id', id, 'trace_id', 'tr-' || g, 'timestamp', ts, 'event_type', type, 'tenant_id', 'bench',
    'provider_id', provider, 'provider_name', 'провайдер-' || (g % 7), 'source_ip', '10.0.' || (g % 50) || '.' || (g % 200),
    'action', CASE WHEN g % 2 = 0 THEN 'MASK' ELSE 'BLOCK' END, 'jailbreak_score', (g % 100) / 100.0,
    'user_prompt', 'запрос номер ' || g || ' user' || g || '@example.ru',
    'pii_entities', CASE WHEN type = 'PII_DETECTED' THEN jsonb_build_array(jsonb_build_object('type', 'EMAIL', 'start', 14, 'end', 30, 'value', 'user' || g || '@example.ru', 'masked', '[EMAIL]')) ELSE '[]'::jsonb END)
FROM (
  SELECT g, gen_random_uuid() AS id, $2::timestamptz + (g * ($3::float8 / $1)) * interval '1 second' AS ts,
    (ARRAY['PII_DETECTED','PII_DETECTED','REQUEST_BLOCKED','JAILBREAK_DETECTED','CUSTOM_POLICY_BLOCK','RESPONSE_BLOCKED','REQUEST_ALLOWED'])[1 + g % 7] AS type,
    ('00000000-0000-4000-8000-00000000000' || (g % 7))::uuid AS provider
  FROM generate_series(1, $1::int) AS g) AS s`;

const SEED_USAGE = `
INSERT INTO usage_rollups (minute, tenant_id, provider_id, provider_name, model, decision, status_class, inspected, requests, usage_reported, input_tokens, output_tokens, latency_ms_sum, latency_buckets)
SELECT m, 'bench', 'p' || p, 'провайдер-' || p, 'model-' || p, 'ALLOW', '2xx', true, 20, 20, 2000, 5000, 6000, ARRAY[0,0,5,10,5,0,0,0,0,0]::bigint[]
FROM generate_series($1::timestamptz, $2::timestamptz - interval '1 minute', interval '1 minute') AS m, generate_series(1, 4) AS p`;

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { events: { type: 'string' }, days: { type: 'string' } } });
  const events = Number(values.events ?? 1_000_000);
  const days = Number(values.days ?? 30);
  installCleanup();
  const name = `palisade_report_bench_${randomUUID().slice(0, 8)}`;
  const admin = await openDatabase({ databaseUrl: ADMIN_URL, migrate: false });
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const db = await openDatabase({ databaseUrl: url.toString(), migrate: true });
  const to = new Date(Date.UTC(2026, 2, 1) + days * 86_400_000);
  const from = new Date(Date.UTC(2026, 2, 1));
  try {
    let started = Date.now();
    for (let done = 0; done < events; done += 100_000) {
      await db.query(SEED_EVENTS.replace('generate_series(1, $1::int)', `generate_series(${done + 1}, ${Math.min(events, done + 100_000)})`), [events, from.toISOString(), days * 86_400]);
    }
    await db.query(SEED_USAGE, [from.toISOString(), to.toISOString()]);
    await db.query('ANALYZE');
    console.error(`seeded ${events} events and ${days} days of rollups in ${Math.round((Date.now() - started) / 1000)} s`);

    const worker = spawnNode('palisade report-worker', [CLI, 'report-worker'], { env: { DATABASE_URL: url.toString(), PALISADE_PORT_REPORT_WORKER: '0', LOG_LEVEL: 'warn' } });
    const reports = createReportRepository(db);
    const results: Array<{ type: string; format: string; ms: number; bytes: number | null; status: string }> = [];
    let peakKb = 0;
    // The first run includes the worker's start-up: a one-minute report, not counted, goes first.
    const run = async (type: Report['type'], format: Report['format'], periodEnd: Date) => {
      const report: Report = { id: randomUUID(), type, format, period_start: from.toISOString(), period_end: periodEnd.toISOString(), tenant_id: 'bench', all_tenants: false, status: 'PENDING', error: null, created_by: 'bench', created_at: new Date().toISOString(), completed_at: null, size_bytes: null };
      const at = Date.now();
      await reports.create(report);
      await db.notify('palisade_reports', report.id);
      let current = await reports.get(report.id);
      while (current?.status === 'PENDING') {
        if (worker.exited()) throw new Error(`the worker exited (${worker.exited()}): ${worker.output()}`);
        peakKb = Math.max(peakKb, readMemory(worker.pid)?.peakKb ?? 0);
        await new Promise((resolve) => setTimeout(resolve, 100));
        current = await reports.get(report.id);
      }
      return { type, format, ms: Date.now() - at, bytes: current?.size_bytes ?? null, status: current?.status ?? 'MISSING' };
    };
    await run('LLM_USAGE', 'CSV', new Date(from.getTime() + 60_000));
    for (const type of REPORT_TYPES) {
      for (const format of REPORT_FORMATS) {
        const result = await run(type, format, to);
        results.push(result);
        console.error(`${type} ${format}: ${result.status} in ${result.ms} ms`);
      }
    }
    peakKb = Math.max(peakKb, readMemory(worker.pid)?.peakKb ?? 0);
    const slowest = Math.max(...results.map((r) => r.ms));
    const summary = { events, days, reports: results, slowest_ms: slowest, worker_peak_rss_mb: Math.round(peakKb / 1024), targets: { report_ms: TARGET_MS, worker_rss_mb: TARGET_RSS_MB }, met: slowest <= TARGET_MS && peakKb / 1024 <= TARGET_RSS_MB && results.every((r) => r.status === 'COMPLETED') };
    console.log(JSON.stringify(summary, null, 2));
  } finally {
    await stopAll();
    await db.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.close();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exitCode = 1;
});
