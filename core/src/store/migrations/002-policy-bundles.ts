/**
 * The built policy bundle, one row per bundle name. The registry (and the operator) write it after
 * each configuration change; the bundle store serves it, so the two can run in different processes.
 * The archive is kept as base64 text: the same SQL and driver handling on PostgreSQL and PGlite.
 */
export const sql = /* sql */ `
CREATE TABLE policy_bundles (
  name text PRIMARY KEY,
  revision text NOT NULL,
  archive_base64 text NOT NULL,
  built_at timestamptz NOT NULL
);
`;
