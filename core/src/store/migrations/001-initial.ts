/**
 * The first schema. Each managed resource keeps its whole validated record in `data` (jsonb), and
 * copies the fields that are filtered, joined or constrained into columns: the zod model in core/model
 * stays the one definition of the record, and the table only adds indexes and uniqueness.
 */
export const sql = /* sql */ `
CREATE TABLE providers (
  id uuid PRIMARY KEY,
  tenant_id text NOT NULL,
  name text NOT NULL,
  status text NOT NULL,
  managed_by text NOT NULL DEFAULT 'api',
  data jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  CONSTRAINT providers_tenant_name_key UNIQUE (tenant_id, name)
);
CREATE INDEX providers_tenant_status_idx ON providers (tenant_id, status);

CREATE TABLE profiles (
  id uuid PRIMARY KEY,
  tenant_id text NOT NULL,
  name text NOT NULL,
  provider_id uuid NOT NULL REFERENCES providers (id) ON DELETE CASCADE,
  status text NOT NULL,
  managed_by text NOT NULL DEFAULT 'api',
  data jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  CONSTRAINT profiles_tenant_name_key UNIQUE (tenant_id, name)
);
-- The spec's 1 provider : 1 active profile, enforced by the database under concurrent writers.
CREATE UNIQUE INDEX profiles_one_active_per_provider ON profiles (provider_id) WHERE status = 'ACTIVE';

CREATE TABLE content_policies (
  id uuid PRIMARY KEY,
  tenant_id text NOT NULL,
  name text NOT NULL,
  status text NOT NULL,
  priority integer NOT NULL DEFAULT 0,
  managed_by text NOT NULL DEFAULT 'api',
  data jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  CONSTRAINT content_policies_tenant_name_key UNIQUE (tenant_id, name)
);

CREATE TABLE exporters (
  id uuid PRIMARY KEY,
  tenant_id text NOT NULL,
  name text NOT NULL,
  type text NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  managed_by text NOT NULL DEFAULT 'api',
  data jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  CONSTRAINT exporters_tenant_name_key UNIQUE (tenant_id, name)
);

CREATE TABLE reports (
  id uuid PRIMARY KEY,
  tenant_id text NOT NULL,
  status text NOT NULL,
  data jsonb NOT NULL,
  content bytea,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX reports_tenant_created_idx ON reports (tenant_id, created_at DESC);

CREATE TABLE retention_settings (
  tenant_id text PRIMARY KEY,
  data jsonb NOT NULL,
  updated_at timestamptz NOT NULL
);

CREATE TABLE users (
  id uuid PRIMARY KEY,
  tenant_id text NOT NULL,
  username text NOT NULL,
  email text NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  data jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX users_username_key ON users (lower(username));
CREATE UNIQUE INDEX users_email_key ON users (lower(email));

CREATE TABLE user_roles (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role_name text NOT NULL,
  PRIMARY KEY (user_id, role_name)
);

CREATE TABLE api_keys (
  id uuid PRIMARY KEY,
  tenant_id text NOT NULL,
  name text NOT NULL,
  key_hash text NOT NULL UNIQUE,
  revoked boolean NOT NULL DEFAULT false,
  data jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

CREATE TABLE security_events (
  id uuid PRIMARY KEY,
  trace_id text NOT NULL,
  ts timestamptz NOT NULL,
  event_type text NOT NULL,
  severity text NOT NULL,
  tenant_id text NOT NULL,
  provider_id text,
  profile_id text,
  data jsonb NOT NULL
);
CREATE INDEX security_events_trace_idx ON security_events (trace_id);
CREATE INDEX security_events_tenant_ts_idx ON security_events (tenant_id, ts DESC);
CREATE INDEX security_events_type_ts_idx ON security_events (event_type, ts DESC);

-- Audit records are append-only; only the retention worker deletes them (spec: Audit events).
CREATE TABLE audit_log (
  id uuid PRIMARY KEY,
  ts timestamptz NOT NULL,
  user_id text NOT NULL,
  action text NOT NULL,
  resource_type text NOT NULL,
  resource_id text,
  tenant_id text,
  data jsonb NOT NULL
);
CREATE INDEX audit_log_ts_idx ON audit_log (ts DESC);
CREATE INDEX audit_log_user_idx ON audit_log (user_id, ts DESC);
CREATE INDEX audit_log_resource_idx ON audit_log (resource_type, resource_id);
`;
