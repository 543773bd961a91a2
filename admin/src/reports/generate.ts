// One report's file: its document (SQL aggregates) rendered in the requested format.
import type { Database, Report } from '@palisade/core';
import { buildReportDocument } from './data/index.js';
import { renderCsv } from './render/csv.js';

export const CONTENT_TYPES: Record<Report['format'], string> = { PDF: 'application/pdf', CSV: 'text/csv; charset=utf-8' };

export type ReportGenerator = (report: Report) => Promise<Buffer>;

export function createReportGenerator(db: Database, now: () => Date = () => new Date()): ReportGenerator {
  return async (report) => {
    const doc = await buildReportDocument(db, report, now());
    if (report.format === 'CSV') return renderCsv(doc);
    // Loaded on first use: pdfkit and its font tables cost every process that imports the admin
    // package (the CLI, each component) a few hundred ms of start-up otherwise.
    const { renderPdf } = await import('./render/pdf.js');
    return renderPdf(doc);
  };
}

/** `pii-dlp_acme_2026-03-01_2026-03-31.pdf`: ASCII only, so the header needs no encoding. */
export function reportFileName(report: Report): string {
  const safe = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 60) || 'tenant';
  const day = (iso: string) => new Date(iso).toISOString().slice(0, 10);
  const scope = report.all_tenants ? 'all-tenants' : safe(report.tenant_id);
  return `${report.type.toLowerCase().replace('_', '-')}_${scope}_${day(report.period_start)}_${day(report.period_end)}.${report.format.toLowerCase()}`;
}
