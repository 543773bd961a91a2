/**
 * Usage accounting and report generation.
 *
 * usage_rollups: one row per minute and (tenant, provider, model, decision, status class, inspected),
 * added to by the event writer from the gateways' flushed per-minute counters. usage_batches records
 * every flushed batch id in the same transaction as its additions, so a batch the stream delivers
 * twice is counted once. Latency buckets are counts per upper bound (USAGE_LATENCY_BOUNDS_MS).
 *
 * reports gain a lease: a worker claims a PENDING report for lease_expires_at and renews it while it
 * works; a report whose lease ran out (its worker died) is claimed again by any replica.
 */
export const sql = /* sql */ `
CREATE TABLE usage_rollups (
  minute timestamptz NOT NULL,
  tenant_id text NOT NULL,
  provider_id text NOT NULL,
  provider_name text NOT NULL,
  model text NOT NULL,
  decision text NOT NULL,
  status_class text NOT NULL,
  inspected boolean NOT NULL,
  requests bigint NOT NULL,
  usage_reported bigint NOT NULL,
  input_tokens bigint NOT NULL,
  output_tokens bigint NOT NULL,
  latency_ms_sum double precision NOT NULL,
  latency_buckets bigint[] NOT NULL,
  PRIMARY KEY (tenant_id, minute, provider_id, model, decision, status_class, inspected)
);
CREATE INDEX usage_rollups_minute_idx ON usage_rollups (minute);

CREATE TABLE usage_batches (
  batch_id text PRIMARY KEY,
  stored_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX usage_batches_stored_idx ON usage_batches (stored_at);

ALTER TABLE reports ADD COLUMN lease_owner text;
ALTER TABLE reports ADD COLUMN lease_expires_at timestamptz;
ALTER TABLE reports ADD COLUMN attempts integer NOT NULL DEFAULT 0;
CREATE INDEX reports_pending_idx ON reports (created_at) WHERE status = 'PENDING';
CREATE INDEX reports_created_idx ON reports (created_at);
`;
