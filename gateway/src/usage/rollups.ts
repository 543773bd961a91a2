// Per-minute usage counters kept in memory: one entry per minute and dimension set, so the hot path
// only adds numbers to a map entry and nothing is written per request.
import { latencyBucketOf, statusClassOf, USAGE_LATENCY_BUCKETS, type UsageDecision, type UsageRollup } from '@palisade/core';
import type { TokenUsage } from './tokens.js';

export interface UsageSample {
  tenantId: string;
  providerId: string;
  providerName: string;
  model: string;
  /** The gateway decision, or NONE when the call was not inspected. */
  decision: UsageDecision;
  inspected: boolean;
  status: number;
  latencyMs: number;
  tokens: TokenUsage | null;
  /** When the call ended (epoch ms). */
  at: number;
}

export interface UsageRollups {
  add(sample: UsageSample): void;
  /** Everything counted so far, emptied. */
  drain(): UsageRollup[];
  /** Entries held (distinct minute and dimension sets). */
  readonly size: number;
}

const MINUTE_MS = 60_000;

export function createUsageRollups(): UsageRollups {
  let entries = new Map<string, UsageRollup>();
  return {
    add(s) {
      const minute = s.at - (s.at % MINUTE_MS);
      const statusClass = statusClassOf(s.status);
      const key = `${minute}\u0000${s.tenantId}\u0000${s.providerId}\u0000${s.model}\u0000${s.decision}\u0000${statusClass}\u0000${s.inspected ? 1 : 0}`;
      let entry = entries.get(key);
      if (!entry) {
        entry = {
          minute: new Date(minute).toISOString(),
          tenant_id: s.tenantId,
          provider_id: s.providerId,
          provider_name: s.providerName,
          model: s.model,
          decision: s.decision,
          status_class: statusClass,
          inspected: s.inspected,
          requests: 0,
          usage_reported: 0,
          input_tokens: 0,
          output_tokens: 0,
          latency_ms_sum: 0,
          latency_buckets: new Array<number>(USAGE_LATENCY_BUCKETS).fill(0),
        };
        entries.set(key, entry);
      }
      entry.requests++;
      entry.latency_ms_sum += s.latencyMs;
      entry.latency_buckets[latencyBucketOf(s.latencyMs)]!++;
      if (s.tokens) {
        entry.usage_reported++;
        entry.input_tokens += s.tokens.input;
        entry.output_tokens += s.tokens.output;
      }
    },
    drain() {
      const out = [...entries.values()];
      entries = new Map();
      return out;
    },
    get size() {
      return entries.size;
    },
  };
}
