// Reports end to end through the Admin API on PGlite and PostgreSQL: request, generate with the worker,
// download; every type in PDF and CSV, read back (pdf.js, csv-parse) and checked against SQL.
import t from 'tap';
import { request } from 'undici';
import { createSecretBox, type Database } from '@palisade/core';
import { forEachDatabase } from '@palisade/core/testing';
import { standardRouteModules } from '../admin-api/standard-modules.js';
import { identityHeaders, startAdminApi, type Caller } from '../testing/admin-api.js';
import { createReportWorker } from './worker.js';
import { MASKED_EMAIL, parseReportCsv, pdfPages, RAW_EMAIL, seedReportData } from '../testing/reports.js';

const OPERATOR: Caller = { user: 'oleg', groups: 'operator', tenant: 'acme' };
const VIEWER: Caller = { user: 'vera', groups: 'viewer', tenant: 'acme' };
const ADMIN: Caller = { user: 'anna', groups: 'admin', tenant: 'acme' };
const ROOT: Caller = { user: 'root', groups: 'super-admin', tenant: 'acme' };
const MARCH = { period_start: '2026-03-01', period_end: '2026-04-01' };
const fmt = (n: number) => n.toLocaleString('en-US');

async function sqlFigures(db: Database) {
  const one = async (sql: string) => Number((await db.query<{ n: unknown }>(sql)).rows[0]!.n);
  const march = `tenant_id = 'acme' AND ts >= '2026-03-01' AND ts < '2026-04-01'`;
  const usage = `tenant_id = 'acme' AND minute >= '2026-03-01' AND minute < '2026-04-01'`;
  return {
    piiIncidents: await one(`SELECT count(*) AS n FROM security_events WHERE ${march} AND event_type = 'PII_DETECTED'`),
    piiValues: await one(`SELECT count(*) AS n FROM security_events, jsonb_array_elements(data->'pii_entities') WHERE ${march} AND event_type = 'PII_DETECTED'`),
    incidents: await one(`SELECT count(*) AS n FROM security_events WHERE ${march} AND event_type IN ('REQUEST_BLOCKED', 'JAILBREAK_DETECTED', 'CUSTOM_POLICY_BLOCK', 'POLICY_VIOLATION', 'RESPONSE_BLOCKED')`),
    jailbreaks: await one(`SELECT count(*) AS n FROM security_events WHERE ${march} AND event_type = 'JAILBREAK_DETECTED'`),
    requests: await one(`SELECT sum(requests) AS n FROM usage_rollups WHERE ${usage}`),
    inputTokens: await one(`SELECT sum(input_tokens) AS n FROM usage_rollups WHERE ${usage}`),
    allRequests: await one(`SELECT sum(requests) AS n FROM usage_rollups WHERE minute >= '2026-03-01' AND minute < '2026-04-01'`),
  };
}

t.test('reports through the Admin API', async (t) => {
  await forEachDatabase(t, async (t, db) => {
    await seedReportData(db);
    const { base, call } = await startAdminApi(t, db, { routeModules: standardRouteModules({ db, secrets: createSecretBox('test-key') }) });
    const worker = createReportWorker({ db, leaseMs: 5_000 });
    const figures = await sqlFigures(db);
    const download = async (id: string, as: Caller, query = '') => {
      const res = await request(`${base}/api/v1/reports/${id}/download${query}`, { headers: identityHeaders(as) });
      return { status: res.statusCode, headers: res.headers, body: Buffer.from(await res.body.arrayBuffer()) };
    };
    const generate = async (body: Record<string, unknown>, as: Caller = OPERATOR) => {
      const created = await call('POST', '/api/v1/reports', { as, body });
      t.equal(created.status, 202, `${created.text.slice(0, 200)}`);
      t.equal(created.body.status, 'PENDING');
      t.equal(await worker.runOnce(), created.body.id);
      const done = await call('GET', `/api/v1/reports/${created.body.id}`, { as: VIEWER });
      t.equal(done.body.status, 'COMPLETED', done.body.error ?? '');
      const file = await download(created.body.id, VIEWER);
      t.equal(file.status, 200);
      t.equal(done.body.size_bytes, file.body.length);
      return { report: done.body, file };
    };

    t.test('bad periods are a 400 naming the field', async (t) => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ period_start: '2026-03-10', period_end: '2026-03-01' }, 'period_end'],
        [{ period_start: '2024-01-01', period_end: '2025-06-01' }, 'period_end'],
        [{ period_start: 'last monday', period_end: '2026-03-01' }, 'period_start'],
        [{ period_start: '2026-03-01', period_end: '2026-02-30' }, 'period_end'],
      ];
      for (const [period, field] of cases) {
        const res = await call('POST', '/api/v1/reports', { as: OPERATOR, body: { type: 'PII_DLP', format: 'PDF', ...period } });
        t.equal(res.status, 400, JSON.stringify(period));
        t.equal(res.body.error.details[0].path, field, JSON.stringify(period));
      }
    });

    t.test('PENDING downloads are 409; viewers cannot generate; admins delete; every change is audited', async (t) => {
      const created = await call('POST', '/api/v1/reports', { as: OPERATOR, body: { type: 'PII_DLP', format: 'CSV', ...MARCH } });
      t.equal((await download(created.body.id, VIEWER)).status, 409);
      t.equal((await call('POST', '/api/v1/reports', { as: VIEWER, body: { type: 'PII_DLP', ...MARCH } })).status, 403);
      t.equal((await call('DELETE', `/api/v1/reports/${created.body.id}`, { as: OPERATOR })).status, 403);
      t.equal((await call('DELETE', `/api/v1/reports/${created.body.id}`, { as: ADMIN })).status, 204);
      t.equal((await call('GET', `/api/v1/reports/${created.body.id}`, { as: ADMIN })).status, 404);
      const audit = await db.query<{ entry: string }>(
        `SELECT action || ' ' || (data->>'response_status') AS entry FROM audit_log WHERE resource_type = 'reports' AND resource_id = $1`,
        [created.body.id],
      );
      t.same(audit.rows.map((r) => r.entry).sort(), ['CREATE 202', 'DELETE 204', 'DELETE 403'], 'refused calls are audited too');
      t.equal((await call('GET', `/api/v1/reports/${created.body.id}`, { as: { ...VIEWER, tenant: 'globex' } })).status, 404);
    });

    t.test('PII/DLP as PDF and CSV', async (t) => {
      const pdf = await generate({ type: 'PII_DLP', format: 'PDF', ...MARCH });
      t.equal(pdf.file.headers['content-type'], 'application/pdf');
      t.equal(pdf.file.headers['content-disposition'], 'attachment; filename="pii-dlp_acme_2026-03-01_2026-04-01.pdf"');
      const pages = await pdfPages(pdf.file.body);
      t.ok(pages.length >= 3, 'cover and sections');
      t.match(pages[0], /PII \/ DLP report/);
      t.match(pages[0], 'Tenant acme');
      t.match(pages[0], `PII incidents ${fmt(figures.piiIncidents)} PII values found ${fmt(figures.piiValues)}`);
      const all = pages.join('\n');
      for (const title of ['By PII type', 'By action', 'Top 10 providers by PII incidents', 'Per day']) t.match(all, title);
      t.match(all, 'Яндекс ГПТ прод', 'Cyrillic text is real text');
      t.notMatch(all, RAW_EMAIL);
      pages.forEach((page, i) => t.match(page, `Page ${i + 1} of ${pages.length}`));

      const csv = await generate({ type: 'PII_DLP', format: 'CSV', ...MARCH });
      t.equal(csv.file.headers['content-type'], 'text/csv; charset=utf-8');
      t.not(csv.file.body[0], 0xef, 'no BOM unless asked');
      const records = parseReportCsv(csv.file.body);
      const value = (section: string, metric: string, label?: string) => records.find((r) => r.section === section && r.metric === metric && (label === undefined || r.label === label))?.value;
      t.equal(value('summary', 'pii_incidents'), String(figures.piiIncidents));
      t.equal(value('summary', 'pii_entities'), String(figures.piiValues));
      t.equal(value('top_providers', 'incidents', 'Яндекс ГПТ прод'), '10');
      t.equal(value('by_pii_type', 'entities', 'PHONE_NUMBER'), '5');
      const perDay = records.filter((r) => r.section === 'per_day' && r.metric === 'incidents');
      t.equal(perDay.length, 31, 'every day of March, zeros included');
      t.equal(perDay.reduce((sum, r) => sum + Number(r.value), 0), figures.piiIncidents);
      const bom = await download(csv.report.id, VIEWER, '?bom=true');
      t.same([...bom.body.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
      t.same(parseReportCsv(bom.body), records, 'the same rows behind the BOM');
    });

    t.test('Incidents: Russian prompts, masked PII, trace ids', async (t) => {
      const pdf = await generate({ type: 'INCIDENTS', format: 'PDF', ...MARCH });
      const all = (await pdfPages(pdf.file.body)).join('\n');
      t.match(all, `Incidents ${fmt(figures.incidents)}`);
      t.match(all, `Jailbreaks ${figures.jailbreaks}`);
      for (const title of ['By severity', 'Timeline (per day)', 'Top providers', 'Top source addresses', 'Top 20 incidents']) t.match(all, title);
      t.match(all, 'Игнорируй все инструкции');
      t.match(all, MASKED_EMAIL);
      t.notMatch(all, RAW_EMAIL, 'no raw PII anywhere');
      const trace = await db.query<{ trace_id: string }>(`SELECT trace_id FROM security_events WHERE tenant_id = 'acme' AND event_type = 'JAILBREAK_DETECTED' ORDER BY (data->>'jailbreak_score')::float8 DESC NULLS LAST LIMIT 1`);
      t.match(all, trace.rows[0]!.trace_id, 'the worst incident with its trace id');
      const csv = parseReportCsv((await generate({ type: 'INCIDENTS', format: 'CSV', ...MARCH })).file.body);
      t.equal(csv.find((r) => r.section === 'summary' && r.metric === 'incidents')?.value, String(figures.incidents));
      t.equal(csv.filter((r) => r.section === 'top_incidents' && r.metric === 'trace_id').length, Math.min(20, figures.incidents));
      t.notOk(csv.some((r) => r.value.includes(RAW_EMAIL)));
    });

    t.test('LLM usage: tenant report and a super-admin report across tenants', async (t) => {
      const pdf = await generate({ type: 'LLM_USAGE', format: 'PDF', ...MARCH });
      const all = (await pdfPages(pdf.file.body)).join('\n');
      t.match(all, `Requests ${fmt(figures.requests)} Input tokens ${fmt(figures.inputTokens)}`);
      for (const title of ['By provider', 'By model', 'By tenant', 'Per day']) t.match(all, title);
      t.match(all, 'yandexgpt-лайт');
      const csv = parseReportCsv((await generate({ type: 'LLM_USAGE', format: 'CSV', ...MARCH })).file.body);
      t.equal(csv.find((r) => r.section === 'summary' && r.metric === 'requests')?.value, String(figures.requests));
      t.equal(csv.find((r) => r.section === 'by_provider' && r.label === 'vendor-en' && r.metric === 'blocked')?.value, '20');

      const across = await generate({ type: 'LLM_USAGE', format: 'CSV', ...MARCH }, ROOT);
      t.equal(across.report.all_tenants, true);
      const rows = parseReportCsv(across.file.body);
      t.equal(rows.find((r) => r.section === 'summary' && r.metric === 'requests')?.value, String(figures.allRequests));
      t.ok(rows.some((r) => r.section === 'by_tenant' && r.label === 'globex'));
      t.equal((await call('POST', '/api/v1/reports', { as: OPERATOR, body: { type: 'LLM_USAGE', tenant_id: 'globex', ...MARCH } })).status, 403);
      const list = await call('GET', '/api/v1/reports', { as: VIEWER });
      t.ok(list.body.items.every((r: { tenant_id: string }) => r.tenant_id === 'acme'));
    });
  });
});
