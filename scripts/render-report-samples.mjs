#!/usr/bin/env node
// Dev script: generates every report type in PDF and CSV over seeded sample data (embedded PGlite)
// and renders page 1 (and 2) of each PDF to PNG with pdftoppm (Debian: poppler-utils), so a person can
// look at them. Usage: npm run build && node scripts/render-report-samples.mjs [out-dir] (default: a
// folder under the system temp dir)
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '@palisade/core';
import { createReportGenerator, reportFileName } from '@palisade/admin';
import { seedReportData } from '../admin/dist/reports/test-util.js';

const out = process.argv[2] ?? join(tmpdir(), 'palisade-report-samples');
mkdirSync(out, { recursive: true });
const db = await openDatabase({ migrate: true });
await seedReportData(db);
const generate = createReportGenerator(db);
for (const type of ['PII_DLP', 'INCIDENTS', 'LLM_USAGE']) {
  for (const format of ['PDF', 'CSV']) {
    const report = {
      id: globalThis.crypto.randomUUID(), type, format, period_start: '2026-03-01T00:00:00.000Z', period_end: '2026-04-01T00:00:00.000Z',
      tenant_id: 'acme', all_tenants: false, status: 'PENDING', error: null, created_by: 'Иван Петров', created_at: new Date().toISOString(), completed_at: null, size_bytes: null,
    };
    const file = join(out, reportFileName(report));
    writeFileSync(file, await generate(report));
    if (format === 'PDF') {
      try {
        execFileSync('pdftoppm', ['-png', '-r', '70', '-f', '1', '-l', '3', file, file.replace(/\.pdf$/, '')]);
      } catch (error) {
        console.error(`pdftoppm failed (apt-get install poppler-utils): ${error.message}`);
      }
    }
    console.log(file);
  }
}
await db.close();
