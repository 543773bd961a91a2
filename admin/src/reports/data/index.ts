// The document of a report: its type's sections, computed in SQL over the report's period and tenants.
import type { Database, Report } from '@palisade/core';
import { TITLES, type ReportDocument, type Section } from '../document.js';
import { incidentSections } from './incidents.js';
import { llmUsageSections } from './llm-usage.js';
import { piiDlpSections } from './pii-dlp.js';
import { scopeOf, type Scope } from './rows.js';

const BUILDERS: Record<Report['type'], (db: Database, scope: Scope) => Promise<Section[]>> = {
  PII_DLP: piiDlpSections,
  INCIDENTS: incidentSections,
  LLM_USAGE: llmUsageSections,
};

export async function buildReportDocument(db: Database, report: Report, now: Date): Promise<ReportDocument> {
  return {
    title: TITLES[report.type],
    report,
    scope: report.all_tenants ? 'all tenants' : report.tenant_id,
    generatedAt: now.toISOString(),
    sections: await BUILDERS[report.type](db, scopeOf(report)),
  };
}
