import t from 'tap';
import { Report, ReportCreate } from './report.js';
import { issuePaths, parseOk } from '../testing/model.js';

const base = { type: 'PII_DLP', format: 'CSV', period_start: '2025-01-01T00:00:00Z', period_end: '2025-01-31T23:59:59Z' };

t.test('create', async (t) => {
  t.same(parseOk(ReportCreate, base), base);
  const { format: _, ...noFormat } = base;
  t.equal(parseOk(ReportCreate, noFormat).format, 'PDF');
  for (const type of ['PII_DLP', 'INCIDENTS', 'LLM_USAGE']) t.same(issuePaths(ReportCreate, { ...base, type }), [], type);
  t.equal(parseOk(ReportCreate, { ...base, type: 'PII/DLP', format: 'pdf' }).type, 'PII_DLP');
  t.equal(parseOk(ReportCreate, { ...base, type: 'llm usage' }).type, 'LLM_USAGE');
  t.same(issuePaths(ReportCreate, { ...base, type: 'SALES' }), ['type']);
  t.same(issuePaths(ReportCreate, { ...base, format: 'XLSX' }), ['format']);
  t.same(issuePaths(ReportCreate, { ...base, period_start: 'last week' }), ['period_start']);
  t.same(issuePaths(ReportCreate, { ...base, period_end: undefined }), ['period_end']);
  t.same(issuePaths(ReportCreate, { ...base, period_start: '2025-01-01', period_end: '2025-01-31' }), [], 'dates');
});

t.test('the period ends after it starts and spans at most 366 days', async (t) => {
  t.same(issuePaths(ReportCreate, { ...base, period_start: '2025-02-01T00:00:00Z', period_end: '2025-01-01T00:00:00Z' }), ['period_end']);
  t.same(issuePaths(ReportCreate, { ...base, period_start: '2025-02-01T00:00:00Z', period_end: '2025-02-01T00:00:00Z' }), ['period_end'], 'an empty period');
  t.same(issuePaths(ReportCreate, { ...base, period_start: '2024-01-01', period_end: '2025-01-01' }), [], '366 days (a leap year)');
  t.same(issuePaths(ReportCreate, { ...base, period_start: '2024-01-01', period_end: '2025-01-02' }), ['period_end'], '367 days');
  t.same(issuePaths(ReportCreate, { ...base, period_start: '2025-02-30' }), ['period_start'], 'no such day');
});

t.test('the stored report and its states', async (t) => {
  const r = parseOk(Report, { ...base, id: globalThis.crypto.randomUUID(), tenant_id: 't', created_by: 'ivan', created_at: new Date().toISOString() });
  t.equal(r.status, 'PENDING');
  t.equal(r.error, null);
  t.same(issuePaths(Report, { ...r, status: 'FAILED', error: 'no data' }), []);
  t.same(issuePaths(Report, { ...r, status: 'COMPLETED', completed_at: new Date().toISOString() }), []);
  t.same(issuePaths(Report, { ...r, status: 'RUNNING' }), ['status']);
});
