// Usage accounting: what the gateway counts per minute for every call it handles, and the batch in
// which it flushes those counters through the event stream to the event writer.
import { z } from 'zod';
import { IsoDateTime, TenantId } from './common.js';
import { DECISIONS } from './security-event.js';

/** The event stream the gateways flush usage batches to and the event writer reads. */
export const USAGE_STREAM = 'palisade:usage';

/**
 * Upper bounds (ms) of the latency histogram buckets; a last bucket counts everything slower.
 * Coarse on purpose: the report shows distribution and an estimated p95, not exact percentiles.
 */
export const USAGE_LATENCY_BOUNDS_MS = [50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 30_000] as const;
export const USAGE_LATENCY_BUCKETS = USAGE_LATENCY_BOUNDS_MS.length + 1;

export const STATUS_CLASSES = ['2xx', '3xx', '4xx', '5xx'] as const;
export const StatusClass = z.enum(STATUS_CLASSES);
export type StatusClass = z.infer<typeof StatusClass>;

const Count = z.number().int().min(0);

/** The gateway's decisions, and NONE for a call that was not inspected (no profile). */
export const USAGE_DECISIONS = [...DECISIONS, 'NONE'] as const;
export const UsageDecision = z.enum(USAGE_DECISIONS);
export type UsageDecision = z.infer<typeof UsageDecision>;

/** The dimensions of one rollup row; empty strings where a call had no provider or model. */
export const UsageKey = z.object({
  /** Start of the UTC minute. */
  minute: IsoDateTime,
  tenant_id: TenantId,
  provider_id: z.string().max(255),
  provider_name: z.string().max(255),
  model: z.string().max(255),
  decision: UsageDecision,
  status_class: StatusClass,
  inspected: z.boolean(),
});
export type UsageKey = z.infer<typeof UsageKey>;

export const UsageCounters = z.object({
  requests: Count,
  /** Calls whose upstream answer carried token usage. */
  usage_reported: Count,
  input_tokens: Count,
  output_tokens: Count,
  latency_ms_sum: z.number().min(0),
  latency_buckets: z.array(Count).length(USAGE_LATENCY_BUCKETS),
});
export type UsageCounters = z.infer<typeof UsageCounters>;

export const UsageRollup = UsageKey.extend(UsageCounters.shape);
export type UsageRollup = z.infer<typeof UsageRollup>;

/** One flush of one gateway: the id makes its storage idempotent under redelivery. */
export const UsageBatch = z.object({
  kind: z.literal('usage'),
  batch_id: z.string().min(1).max(128),
  /** Which gateway replica flushed it (for diagnosis). */
  source: z.string().max(255),
  rollups: z.array(UsageRollup).min(1),
});
export type UsageBatch = z.infer<typeof UsageBatch>;

/** Maps an HTTP status to its class; anything below 300 counts as 2xx, 499 (client gone) as 4xx. */
export function statusClassOf(status: number): StatusClass {
  if (status >= 500) return '5xx';
  if (status >= 400) return '4xx';
  if (status >= 300) return '3xx';
  return '2xx';
}

/** The histogram bucket a latency falls in. */
export function latencyBucketOf(ms: number): number {
  for (let i = 0; i < USAGE_LATENCY_BOUNDS_MS.length; i++) if (ms <= USAGE_LATENCY_BOUNDS_MS[i]!) return i;
  return USAGE_LATENCY_BOUNDS_MS.length;
}
