// The retention worker: on a timer, applies the retention settings — deletes security events after
// event_retention_days (and the usage rollups with them), scrubs event details after detail_retention_days, deletes reports after
// report_retention_days and audit records after audit_retention_days (at least 1095; nothing else ever
// deletes them).
import type { Logger } from 'pino';
import {
  createAuditRepository,
  createEventRepository,
  createRetentionRepository,
  createUsageRepository,
  type AuditRecord,
  type Database,
  type RetentionSettings,
  type SecurityEvent,
} from '@palisade/core';
import { scrubEventDetails } from './scrub.js';
import { createRetentionSettingsStore } from './settings.js';

const DAY_MS = 86_400_000;
/** Retention is counted in days: an hourly pass is prompt enough. */
export const DEFAULT_RETENTION_INTERVAL_MS = 3_600_000;

export interface RetentionWorkerOptions {
  db: Database;
  now?: () => Date;
  /** Between the end of one pass and the start of the next (default one hour). */
  intervalMs?: number;
  logger?: Pick<Logger, 'info' | 'error'> | undefined;
}

export interface RetentionRunResult {
  settings: RetentionSettings;
  /** Records older than these instants were removed or scrubbed. */
  cutoffs: { events: string; details: string; reports: string; audit: string };
  events_deleted: number;
  /** Usage rollup rows (per minute) older than the events cutoff. */
  usage_rows_deleted: number;
  details_scrubbed: number;
  reports_deleted: number;
  audit_deleted: number;
}

export interface RetentionWorker {
  /** One pass now; rejects when the database fails. */
  runOnce(): Promise<RetentionRunResult>;
  /** Runs a pass now and then every intervalMs; a failed pass is logged and retried on the next. */
  start(): void;
  /** Stops the timer and waits for a pass in progress. */
  stop(): Promise<void>;
}

export function createRetentionWorker(options: RetentionWorkerOptions): RetentionWorker {
  const now = options.now ?? (() => new Date());
  const intervalMs = options.intervalMs ?? DEFAULT_RETENTION_INTERVAL_MS;
  const settingsStore = createRetentionSettingsStore(options.db);
  const events = createEventRepository<SecurityEvent>(options.db);
  const audit = createAuditRepository<AuditRecord>(options.db);
  const retention = createRetentionRepository<RetentionSettings>(options.db);
  const usage = createUsageRepository(options.db);
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = true;

  async function runOnce(): Promise<RetentionRunResult> {
    const settings = await settingsStore.load();
    const at = now().getTime();
    const before = (days: number) => new Date(at - days * DAY_MS).toISOString();
    const cutoffs = {
      events: before(settings.event_retention_days),
      details: before(settings.detail_retention_days),
      reports: before(settings.report_retention_days),
      audit: before(settings.audit_retention_days),
    };
    // Deleting first leaves fewer events to scrub.
    const eventsDeleted = await events.deleteBefore(cutoffs.events);
    const usageRowsDeleted = await usage.deleteBefore(cutoffs.events);
    const detailsScrubbed = await events.scrubBefore(cutoffs.details, scrubEventDetails);
    const reportsDeleted = await retention.deleteReportsBefore(cutoffs.reports);
    const auditDeleted = await audit.deleteBefore(cutoffs.audit);
    const result = { settings, cutoffs, events_deleted: eventsDeleted, usage_rows_deleted: usageRowsDeleted, details_scrubbed: detailsScrubbed, reports_deleted: reportsDeleted, audit_deleted: auditDeleted };
    options.logger?.info({ ...result, settings: undefined }, 'retention pass done');
    return result;
  }

  function schedule(delay: number) {
    if (stopped) return;
    timer = setTimeout(() => {
      running = runOnce()
        .catch((err: unknown) => options.logger?.error({ err }, 'retention pass failed; retrying on the next pass'))
        .finally(() => {
          running = undefined;
          schedule(intervalMs);
        });
    }, delay);
    // The worker never holds a process open by itself; the service it runs in does.
    timer.unref();
  }

  return {
    runOnce,
    start() {
      if (!stopped) return;
      stopped = false;
      schedule(0);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
