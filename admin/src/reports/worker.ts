// The report worker: claims PENDING reports one at a time (several replicas never take the same one:
// FOR UPDATE SKIP LOCKED in the repository's claim), renews its lease while it generates, and stores
// the file or the failure. A worker that dies stops renewing; once its lease runs out any replica
// claims the report again. A report claimed maxAttempts times without finishing is failed, so one
// that kills its workers does not keep killing them.
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { createReportRepository, createWakeablePause, type Database } from '@palisade/core';
import { createReportGenerator, type ReportGenerator } from './generate.js';

/** LISTEN/NOTIFY channel: a new report wakes an idle worker at once. */
export const REPORTS_CHANNEL = 'palisade_reports';

export interface ReportWorkerOptions {
  db: Database;
  generate?: ReportGenerator;
  owner?: string;
  /** How long a claim holds without renewal (default 60 s); renewed every third of it. */
  leaseMs?: number;
  /** How often an idle worker looks for work besides the notices (default 5 s). */
  pollMs?: number;
  maxAttempts?: number;
  now?: () => Date;
  logger?: Pick<Logger, 'info' | 'warn' | 'error'> | undefined;
}

export interface ReportWorker {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Claims and generates one report; resolves to its id, or null when none was waiting. */
  runOnce(): Promise<string | null>;
  readonly owner: string;
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 1000);

export function createReportWorker(options: ReportWorkerOptions): ReportWorker {
  const { db, logger } = options;
  const reports = createReportRepository(db);
  const now = options.now ?? (() => new Date());
  const generate = options.generate ?? createReportGenerator(db, now);
  const owner = options.owner ?? `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  const leaseMs = options.leaseMs ?? 60_000;
  const pollMs = options.pollMs ?? 5_000;
  const maxAttempts = options.maxAttempts ?? 3;
  const { pause, wake } = createWakeablePause();
  let running = false;
  let loopDone: Promise<void> | undefined;
  let unlisten: (() => Promise<void>) | undefined;

  async function runOnce(): Promise<string | null> {
    const claimed = await reports.claim(owner, leaseMs);
    if (!claimed) return null;
    const { report, attempts } = claimed;
    if (attempts > maxAttempts) {
      await reports.fail(report.id, owner, `generation was abandoned ${maxAttempts} times (its worker stopped)`, now().toISOString());
      return report.id;
    }
    const renew = setInterval(() => {
      reports.renew(report.id, owner, leaseMs).catch((err) => logger?.warn({ report_id: report.id, err: errorText(err) }, 'report lease renewal failed'));
    }, Math.max(10, Math.floor(leaseMs / 3)));
    const started = Date.now();
    try {
      const content = await generate(report);
      const stored = await reports.complete(report.id, owner, content, now().toISOString());
      logger?.info({ report_id: report.id, type: report.type, format: report.format, bytes: content.length, ms: Date.now() - started, stored }, 'report generated');
    } catch (err) {
      logger?.warn({ report_id: report.id, err: errorText(err) }, 'report generation failed');
      await reports.fail(report.id, owner, errorText(err), now().toISOString());
    } finally {
      clearInterval(renew);
    }
    return report.id;
  }

  async function loop(): Promise<void> {
    while (running) {
      let worked = false;
      try {
        worked = (await runOnce()) !== null;
      } catch (err) {
        logger?.warn({ err: errorText(err) }, 'report worker cannot reach the database; retrying');
      }
      if (running && !worked) await pause(pollMs);
    }
  }

  return {
    owner,
    runOnce,
    async start() {
      if (running) return;
      running = true;
      unlisten = await db.listen(REPORTS_CHANNEL, () => wake()).catch(() => undefined);
      loopDone = loop();
    },
    async stop() {
      running = false;
      wake();
      await loopDone;
      await unlisten?.();
    },
  };
}
