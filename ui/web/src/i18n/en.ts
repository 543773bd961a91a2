// English texts of the console. ru.ts has the same keys (its type is checked against this one).
import type {
  AuditAction, AuditResource, AuthType, Decision, EventType, ExporterType, FailSafeMode, FieldMapping, HealthStatus, InspectionCheck, InspectionDetector, MatchType, PiiMode, PiiType,
  PolicyAction, PolicyScope, PolicyType, ReportStatus, ReportType, ResourceStatus, ResponsePiiMode, RoleName, RuleKind, SafetyCategory, Severity, StreamingScan, TimeoutAction, ViolationAction,
} from '../api/types';

type SkipReason = NonNullable<InspectionCheck['reason']>;
export const en = {
  app: { title: 'Palisade', subtitle: 'security console', theme: 'Toggle dark / light theme', language: 'Language', tenant: 'Tenant', allTenants: 'All tenants', signedInAs: 'Signed in as {{user}} ({{role}})', noRole: 'Your account has no role in Palisade. Ask an administrator to assign one.', loading: 'Loading…', skip: 'Skip to content' },
  nav: { dashboard: 'Dashboard', events: 'Security events', providers: 'Providers', profiles: 'Profiles', policies: 'Content policies', exporters: 'Exporters', reports: 'Reports', users: 'Users', retention: 'Retention settings', audit: 'Audit log' },
  common: {
    create: 'Create', edit: 'Edit', save: 'Save', cancel: 'Cancel', delete: 'Delete', close: 'Close', refresh: 'Refresh', actions: 'Actions',
    name: 'Name', status: 'Status', type: 'Type', created: 'Created', updated: 'Updated', yes: 'Yes', no: 'No', all: 'All', search: 'Search',
    confirmDelete: 'Delete {{name}}? This cannot be undone.', confirmTitle: 'Please confirm', forbidden: 'The Admin API refused this action for your role (403).',
    readOnlyOperator: 'Managed by the Kubernetes operator (a {{kind}} custom resource): change it there; it is read-only here.',
    immutable: 'Set at creation; cannot be changed.', saved: 'Saved', deleted: 'Deleted', warning: 'Warning', error: 'Error', none: '—', empty: 'Nothing here yet.',
    emptyCreate: 'Nothing here yet. Use “Create” to add the first one.', emptyViewer: 'Nothing here yet. An operator or admin can add one.', live: 'Live refresh',
    activate: 'Activate', archive: 'Archive', reactivate: 'Reactivate', enable: 'Enable', disable: 'Disable', details: 'Details', fixErrors: 'The Admin API found problems in the form; see the marked fields.',
  },
  dashboard: {
    title: 'Dashboard', range: 'Time range', h24: '24 h', d7: '7 days', d30: '30 days', custom: 'Custom', from: 'From', to: 'To',
    requests: 'Requests', blocks: 'Blocks', sanitizations: 'Sanitizations', monitorAlerts: 'Monitor alerts', pii: 'PII detections', events: 'Events',
    overTime: 'Over time', topTypes: 'Top event types', topProviders: 'Top providers by PII incidents', bySeverity: 'Events by severity', latestCritical: 'Latest critical events',
    noEvents: 'No security events in this range yet. Send traffic through the gateway (port 8085) to see it here.', openEvents: 'Open the matching events',
  },
  events: {
    title: 'Security events', traceId: 'Trace id', severity: 'Severity', eventType: 'Event type', decision: 'Decision', provider: 'Provider', profile: 'Profile id', tenant: 'Tenant', time: 'Time', from: 'From', to: 'To',
    total: '{{count}} events', clear: 'Clear filters', noMatch: 'No events match these filters. Widen the time range or clear a filter.', trace: 'Trace', score: 'Jailbreak score',
  },
  trace: { title: 'Trace {{id}}', events: 'Every event of this request', prompt: 'Masked prompt', scores: 'Detector scores', pii: 'Personal data found', reasons: 'Reasons', notFound: 'No events with this trace id.', latency: 'Latency' },
  inspection: {
    title: 'Proof of inspection', detector: 'Detector', side: 'Side', score: 'Score / threshold', findings: 'Findings', scoreOf: 'Score of {{detector}}', rule: 'policy {{policy}}, rule #{{rule}}',
    sides: { request: 'request', response: 'response' }, statuses: { ok: 'ran', skipped: 'skipped', timeout: 'timed out', error: 'error', unavailable: 'unavailable' },
    skipReasons: { off_in_profile: 'off in the profile', no_active_policy: 'no active content policy for this side', no_text: 'nothing to check', needs_whole_answer: 'needs the whole answer (the answer was streamed)', other: 'another reason' } satisfies Record<SkipReason, string>,
  },
  providers: { title: 'Providers', health: 'Health', latency: 'Latency', lastError: 'Last error', checkNow: 'Check now', checked: 'Health check: {{status}}, {{latency}}; last error: {{error}}', checkedAt: 'Last checked: {{at}}', match: 'Match', target: 'Target', mapping: 'Mapping', presetHint: 'Recommended preset for {{type}}: {{preset}}', tester: 'Test the JSONPath strings', sample: 'Sample request body', sampleResponse: 'Sample response body', extracts: 'Extracts', noMatch: 'no match', field: 'Field', runTest: 'Run the paths', useSample: 'Use the preset’s sample' },
  profiles: { title: 'Profiles', provider: 'Provider', monitor: 'Monitor mode', monitorHint: 'Monitor mode: detectors run, nothing is blocked; would-be blocks are recorded as monitor alerts.', onlyActive: 'Only active providers are offered.' },
  policies: {
    title: 'Content policies', rules: 'Rules', tester: 'Test a text against this policy', testText: 'Text to test', runTest: 'Test', testFieldErrors: 'The policy has errors; see the marked fields above.',
    fired: 'Fires', notFired: 'Does not fire', resultAction: 'Action', language: 'Detected language: {{language}}', matches: 'Rule matches', rule: 'Rule', pattern: 'Pattern', found: 'Found', span: 'Position',
    truncated: 'More matches were found than are listed.', reasons: { rule_match: 'a rule matched', no_allowlist_match: 'no allowlist rule matched', language_not_allowed: 'the language is not allowed' },
  },
  exporters: { title: 'Exporters', enabled: 'Enabled', sendTest: 'Send test event', testOk: 'Test event delivered', testFailed: 'Test event failed: {{message}}', delivered: 'delivered', failed: 'failed' },
  reports: { title: 'Reports', notYet: 'Reports arrive with the reports service: this Admin API does not offer /api/v1/reports yet.', generate: 'Generate report', period_start: 'Period start', period_end: 'Period end', format: 'Format', download: 'Download', none: 'No reports yet. Generate the first one above.' },
  users: { title: 'Users', username: 'User name', email: 'E-mail', firstName: 'First name', lastName: 'Last name', roles: 'Roles', enabled: 'Enabled', password: 'Password', tenant: 'Tenant', addRole: 'Add role' },
  retention: { title: 'Retention settings', audit_help: 'At least 1095 days (3 years); cannot be lowered.', detail_help: 'Events are kept; concrete PII values are replaced with masks.' },
  audit: { title: 'Audit log', user: 'User', action: 'Action', resource: 'Resource type', resourceId: 'Resource id', path: 'Request', statusCode: 'Answer', time: 'Time', body: 'Request body (secrets masked)' },
  // The API's enum values as words (enum-labels.ts); each table is keyed by the generated type, so a new
  // value fails the build until it has a text here and in ru.ts.
  enums: {
    eventType: {
      REQUEST_BLOCKED: 'Request blocked', REQUEST_SANITIZED: 'Request sanitized', JAILBREAK_DETECTED: 'Jailbreak detected', PII_DETECTED: 'Personal data found',
      POLICY_VIOLATION: 'Policy violation', CUSTOM_POLICY_BLOCK: 'Blocked by content policy', CUSTOM_POLICY_FLAG: 'Flagged by content policy', MONITOR_ALERT: 'Monitor alert',
      RESPONSE_MONITOR_ALERT: 'Monitor alert (answer)', RESPONSE_REDACTED: 'Answer redacted', RESPONSE_BLOCKED: 'Answer blocked', FAIL_SAFE_TRIGGERED: 'Fail-safe triggered',
      DETECTOR_ERROR: 'Detector error', PROVIDER_ERROR: 'Provider error', RATE_LIMIT: 'Rate limited', SERVICE_UNAVAILABLE: 'Service unavailable', REQUEST_ERROR: 'Request error',
      THREAT_DETECTED: 'Threat detected', REQUEST_ALLOWED: 'Request allowed',
    } satisfies Record<EventType, string>,
    severity: { CRITICAL: 'Critical', HIGH: 'High', MEDIUM: 'Medium', LOW: 'Low', INFO: 'Info' } satisfies Record<Severity, string>,
    decision: { ALLOW: 'Allowed', BLOCK: 'Blocked', SANITIZE: 'Sanitized', MONITOR_ONLY: 'Monitor only' } satisfies Record<Decision, string>,
    resourceStatus: { DRAFT: 'Draft', ACTIVE: 'Active', ARCHIVED: 'Archived' } satisfies Record<ResourceStatus, string>,
    healthStatus: { HEALTHY: 'Healthy', UNHEALTHY: 'Unhealthy', UNKNOWN: 'Unknown' } satisfies Record<HealthStatus, string>,
    reportStatus: { PENDING: 'Pending', COMPLETED: 'Completed', FAILED: 'Failed' } satisfies Record<ReportStatus, string>,
    reportType: { PII_DLP: 'Personal data (DLP)', INCIDENTS: 'Incidents', LLM_USAGE: 'LLM usage' } satisfies Record<ReportType, string>,
    auditAction: { CREATE: 'Create', UPDATE: 'Update', DELETE: 'Delete' } satisfies Record<AuditAction, string>,
    auditResource: {
      providers: 'Providers', profiles: 'Profiles', policies: 'Content policies', exporters: 'Exporters', reports: 'Reports', users: 'Users',
      retention_settings: 'Retention settings', api_keys: 'API keys',
    } satisfies Record<AuditResource, string>,
    // Form options. Names that read the same in every language (vendor ids, mapping presets, transports,
    // compressions, SASL mechanisms, syslog formats, HTTP methods) have no table and show as they are.
    matchType: { url: 'URL path', host: 'Host', header: 'Header' } satisfies Record<MatchType, string>,
    authType: { passthrough: 'Pass the caller’s credentials through', bearer: 'Bearer token', api_key_header: 'API key header', oauth2_client_credentials: 'OAuth 2 client credentials' } satisfies Record<AuthType, string>,
    piiType: {
      CREDIT_CARD: 'Card number', INN: 'INN (taxpayer number)', SNILS: 'SNILS (insurance number)', PHONE_NUMBER: 'Phone number', EMAIL: 'E-mail address', PASSPORT_RF: 'Russian passport',
      API_KEY: 'API key', GITHUB_TOKEN: 'GitHub token', JWT: 'JWT', DATABASE_URL: 'Database URL', PRIVATE_KEY: 'Private key', SYSTEM_PROMPT_LEAK: 'System prompt leak',
    } satisfies Record<PiiType, string>,
    piiMode: { mask: 'Mask', block: 'Block', redact: 'Redact', pseudonymize: 'Pseudonymize' } satisfies Record<PiiMode, string>,
    responsePiiMode: { disabled: 'Off', monitor: 'Monitor', mask: 'Mask', block: 'Block' } satisfies Record<ResponsePiiMode, string>,
    violationAction: { block: 'Block', monitor: 'Monitor' } satisfies Record<ViolationAction, string>,
    streamingScan: { incremental: 'Incremental (as it streams)', buffer: 'Buffer the whole answer' } satisfies Record<StreamingScan, string>,
    timeoutAction: { pass: 'Let through', block: 'Block' } satisfies Record<TimeoutAction, string>,
    failSafeMode: { 'fail-open': 'Fail open (let through)', 'fail-closed': 'Fail closed (block)' } satisfies Record<FailSafeMode, string>,
    safetyCategory: {
      violence: 'Violence', illegal_acts: 'Illegal acts', sexual: 'Sexual content', pii: 'Personal data', self_harm: 'Self-harm', unethical: 'Unethical',
      political_sensitive: 'Politically sensitive', copyright: 'Copyright', jailbreak: 'Jailbreak',
    } satisfies Record<SafetyCategory, string>,
    policyType: { blocklist: 'Blocklist', allowlist: 'Allowlist', language: 'Language' } satisfies Record<PolicyType, string>,
    ruleKind: { keyword: 'Keyword', regex: 'Regular expression' } satisfies Record<RuleKind, string>,
    policyScope: { request: 'Request', response: 'Response', both: 'Request and response' } satisfies Record<PolicyScope, string>,
    policyAction: { block: 'Block', flag: 'Flag', trust_pii: 'Trust personal data' } satisfies Record<PolicyAction, string>,
    exporterType: { syslog: 'Syslog', cef: 'CEF', webhook: 'Webhook', kafka: 'Kafka', file: 'File' } satisfies Record<ExporterType, string>,
    fieldMapping: { generic: 'Generic', ecs: 'ECS', custom: 'Custom' } satisfies Record<FieldMapping, string>,
    detector: { threat: 'Threat model', pii: 'Personal data', content_policy: 'Content policies', content_safety: 'Content safety' } satisfies Record<InspectionDetector, string>,
    role: { viewer: 'Viewer', operator: 'Operator', admin: 'Administrator', 'super-admin': 'Super-administrator' } satisfies Record<RoleName, string>,
  },
  forms: {
    // Field labels by property name; English reads the property name (field-labels.ts), so only names
    // that read badly that way have an entry here. ru.ts labels every property.
    fields: {
      audit_retention_days: 'Audit records (days)',
      event_retention_days: 'Security events (days)',
      detail_retention_days: 'PII details scrubbed after (days)',
      report_retention_days: 'Reports (days)',
    } as Record<string, string>,
    // The form library's own texts by its name for each (field-labels.ts); English is the library's.
    library: {} as Record<string, string>,
    fieldHelp: {
      provider_type: 'Vendor family; it selects the recommended mapping preset.',
      match_type: 'How requests are matched to this provider: by URL path pattern, by host, or by a header value.',
      match_value: 'URL pattern (e.g. /v1/chat/*), host name, or header value, by match type.',
      target_base_url: 'Where inspected calls go (scheme and host of the LLM backend).',
      mapping_preset: 'Where the prompt is in the request body of this vendor.',
      mapping_custom: 'Your own JSONPath strings, when no preset fits.',
      upstream_auth: 'How the gateway authenticates to the backend; secrets are stored encrypted and never shown again.',
      monitor_only: 'Run every detector but never block: decisions are recorded as monitor alerts (“Monitor only”).',
      block_status_code: 'HTTP status the client gets for a blocked request.',
      fail_safe: 'What happens when a detector is down or slow.',
      audit_retention_days: 'At least 1095 days (3 years).',
    },
  },
};
export type Texts = typeof en;
