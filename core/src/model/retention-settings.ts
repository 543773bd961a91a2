// Retention settings: how long audit records, events, event details and reports are kept.
// One settings record for the installation; the retention worker applies it.
import { z } from 'zod';
import { IsoDateTime, updateShape } from './common.js';

/** Audit records are kept at least three years (spec): the setting cannot go below it. */
export const MIN_AUDIT_RETENTION_DAYS = 1095;
/** 100 years: a bound that keeps date arithmetic safe. */
const MAX_DAYS = 36500;

const Days = z.number().int().min(1).max(MAX_DAYS);

/** The writable settings with their defaults. */
export const RetentionSettingsSpec = z.object({
  audit_retention_days: z.number().int().min(MIN_AUDIT_RETENTION_DAYS).max(MAX_DAYS).default(MIN_AUDIT_RETENTION_DAYS),
  /** Security events. */
  event_retention_days: Days.default(90),
  /** After this, PII values and prompts in events are replaced by their masked forms. */
  detail_retention_days: Days.default(30),
  report_retention_days: Days.default(365),
});
export type RetentionSettingsSpec = z.infer<typeof RetentionSettingsSpec>;

type DayFields = { detail_retention_days?: number | undefined; event_retention_days?: number | undefined };

/** Details cannot outlive the events that hold them. Checked when both are known. */
function checkRetention(value: DayFields, ctx: z.RefinementCtx) {
  const { detail_retention_days: detail, event_retention_days: event } = value;
  // Refinements also run after field issues; compare only valid values so as not to add noise.
  const valid = (n: number | undefined): n is number => Number.isInteger(n) && (n as number) >= 1;
  if (valid(detail) && valid(event) && detail > event) {
    ctx.addIssue({
      code: 'custom',
      path: ['detail_retention_days'],
      message: 'detail_retention_days must not exceed event_retention_days',
    });
  }
}

/** A full settings body (PUT of the whole record); absent fields take their defaults. */
export const RetentionSettingsCreate = RetentionSettingsSpec.superRefine(checkRetention);
export type RetentionSettingsCreate = z.output<typeof RetentionSettingsCreate>;

/** A partial change; parse the merge with the stored settings with RetentionSettingsCreate. */
export const RetentionSettingsUpdate = z.object(updateShape(RetentionSettingsSpec.shape)).superRefine(checkRetention);
export type RetentionSettingsUpdate = z.output<typeof RetentionSettingsUpdate>;

/** The stored settings. */
export const RetentionSettings = RetentionSettingsSpec.extend({
  updated_at: IsoDateTime.nullable().default(null),
  updated_by: z.string().max(255).nullable().default(null),
});
export type RetentionSettings = z.infer<typeof RetentionSettings>;

export const DEFAULT_RETENTION_SETTINGS: RetentionSettingsSpec = RetentionSettingsSpec.parse({});
