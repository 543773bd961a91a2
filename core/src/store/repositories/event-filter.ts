// The filters of a security event listing as SQL: every value a parameter, compared as the spec says.

/** The columns a listing or the dashboard filters security events by. */
export interface EventQuery {
  trace_id?: string;
  /** Any of these tenants; undefined = all (super-admin). */
  tenant_ids?: string[];
  event_types?: string[];
  severities?: string[];
  provider_id?: string;
  profile_id?: string;
  /** Any of these decisions (the record's `decision`), compared case-insensitively. */
  decisions?: string[];
  from?: string;
  to?: string;
  limit?: number;
  offset?: number;
}

/** The WHERE clause of a query (empty without filters); its values are pushed onto `params`. */
export function eventFilter(query: EventQuery, params: unknown[]): string {
  const parts: string[] = [];
  const add = (sql: (n: string) => string, value: unknown) => {
    params.push(value);
    parts.push(sql(`$${params.length}`));
  };
  if (query.trace_id) add((p) => `trace_id = ${p}`, query.trace_id);
  if (query.tenant_ids) add((p) => `tenant_id = ANY(${p})`, query.tenant_ids);
  // Filters compare case-insensitively (DECISIONS.md "Security event").
  if (query.event_types?.length) add((p) => `upper(event_type) = ANY(${p})`, query.event_types.map((s) => s.toUpperCase()));
  if (query.severities?.length) add((p) => `upper(severity) = ANY(${p})`, query.severities.map((s) => s.toUpperCase()));
  if (query.provider_id) add((p) => `provider_id = ${p}`, query.provider_id);
  if (query.profile_id) add((p) => `profile_id = ${p}`, query.profile_id);
  if (query.decisions?.length) add((p) => `upper(data->>'decision') = ANY(${p})`, query.decisions.map((s) => s.toUpperCase()));
  if (query.from) add((p) => `ts >= ${p}`, query.from);
  if (query.to) add((p) => `ts < ${p}`, query.to);
  return parts.length ? `WHERE ${parts.join(' AND ')}` : '';
}
