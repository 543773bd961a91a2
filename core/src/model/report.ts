// Report: a generated PII/DLP, incidents or LLM-usage document over a period.
// Reports are not edited: created PENDING, they end COMPLETED or FAILED (with `error`).
import { z } from 'zod';
import { IsoDateTime, TenantId, Uuid, withInput } from './common.js';

export const REPORT_TYPES = ['PII_DLP', 'INCIDENTS', 'LLM_USAGE'] as const;
export const ReportType = z.enum(REPORT_TYPES);
export type ReportType = z.infer<typeof ReportType>;

export const REPORT_FORMATS = ['PDF', 'CSV'] as const;
export const ReportFormat = z.enum(REPORT_FORMATS);
export type ReportFormat = z.infer<typeof ReportFormat>;

export const REPORT_STATUSES = ['PENDING', 'COMPLETED', 'FAILED'] as const;
export const ReportStatus = z.enum(REPORT_STATUSES);
export type ReportStatus = z.infer<typeof ReportStatus>;

/** A period bound: an ISO date-time, or a date (YYYY-MM-DD, read as 00:00 UTC). */
export const PeriodBound = z.union([IsoDateTime, z.iso.date()]);

/** The writable fields of a report request. */
export const ReportSpec = z.object({
  type: ReportType,
  format: ReportFormat.default('PDF'),
  period_start: PeriodBound,
  period_end: PeriodBound,
  tenant_id: TenantId.optional(),
});
export type ReportSpec = z.infer<typeof ReportSpec>;

/** Longest report period: a year, leap day included. */
export const MAX_REPORT_PERIOD_DAYS = 366;

function checkPeriod(value: { period_start: string; period_end: string }, ctx: z.RefinementCtx) {
  const span = Date.parse(value.period_end) - Date.parse(value.period_start);
  if (span <= 0) {
    ctx.addIssue({ code: 'custom', path: ['period_end'], message: 'period_end must be after period_start' });
  } else if (span > MAX_REPORT_PERIOD_DAYS * 86_400_000) {
    ctx.addIssue({ code: 'custom', path: ['period_end'], message: `the period is at most ${MAX_REPORT_PERIOD_DAYS} days` });
  }
}

/** Accepts the UI's spellings of the enums ("pii_dlp", "csv", "PII/DLP"). */
export function normaliseReportInput(body: Record<string, unknown>): Record<string, unknown> {
  if (typeof body.type === 'string') body.type = body.type.toUpperCase().replace(/[\s/-]+/g, '_');
  if (typeof body.format === 'string') body.format = body.format.toUpperCase();
  return body;
}

export const ReportCreate = withInput(normaliseReportInput, ReportSpec.superRefine(checkPeriod));
export type ReportCreate = z.output<typeof ReportCreate>;

/** The stored report. */
export const Report = ReportSpec.extend({
  id: Uuid,
  tenant_id: TenantId,
  status: ReportStatus.default('PENDING'),
  /** A super-admin's report over every tenant (tenant_id is then the requester's own). */
  all_tenants: z.boolean().default(false),
  /** Why generation failed (status FAILED). */
  error: z.string().nullable().default(null),
  created_by: z.string().min(1).max(255),
  created_at: IsoDateTime,
  completed_at: IsoDateTime.nullable().default(null),
  size_bytes: z.number().int().min(0).nullable().default(null),
});
export type Report = z.infer<typeof Report>;
