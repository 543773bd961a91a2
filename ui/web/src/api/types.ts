// Names for the generated types the pages use (all from schema.d.ts: no hand-written resource shape).
import type { paths } from './schema';

type Ok<P extends keyof paths, M extends 'get'> = paths[P][M] extends { responses: { 200: { content: { 'application/json': infer T } } } } ? T : never;

type PostOk<P extends keyof paths> = paths[P] extends { post: { responses: { 200: { content: { 'application/json': infer T } } } } } ? T : never;
type PostBody<P extends keyof paths> = paths[P] extends { post: { requestBody?: { content: { 'application/json': infer T } } } } ? T : never;

export type Me = Ok<'/api/v1/me', 'get'>;
export type Permission = Me['permissions'][number];
export type Dashboard = Ok<'/api/v1/dashboard', 'get'>;
export type EventPage = Ok<'/api/v1/security-events', 'get'>;
export type SecurityEvent = EventPage['items'][number];
export type EventQuery = NonNullable<paths['/api/v1/security-events']['get']['parameters']['query']>;
export type Provider = Ok<'/api/v1/providers', 'get'>['items'][number];
export type User = Ok<'/api/v1/users', 'get'>[number];
export type AuditRecord = Ok<'/api/v1/audit-log', 'get'>[number];
export type AuditQuery = NonNullable<paths['/api/v1/audit-log']['get']['parameters']['query']>;
export type RetentionSettings = Ok<'/api/v1/retention-settings', 'get'>;
export type PolicyTestRequest = PostBody<'/api/v1/content-policies/test'>;
export type PolicyTestResult = PostOk<'/api/v1/content-policies/test'>;
export type MappingTestRequest = PostBody<'/api/v1/providers/mapping-test'>;
export type MappingTestResult = PostOk<'/api/v1/providers/mapping-test'>;
export type HealthCheckResult = PostOk<'/api/v1/providers/{id}/health-check'>;
export type InspectionCheck = SecurityEvent['inspection'][number];
export type Report = Ok<'/api/v1/reports', 'get'>['items'][number];
export type Profile = Ok<'/api/v1/profiles', 'get'>['items'][number];
export type ContentPolicy = Ok<'/api/v1/content-policies', 'get'>['items'][number];
export type Exporter = Ok<'/api/v1/exporters', 'get'>['items'][number];

// The values the console shows as words (i18n `enums`): each table is keyed by one of these, so a value
// the API adds cannot go without a text (the build fails).
export type EventType = SecurityEvent['event_type'];
export type Severity = SecurityEvent['severity'];
export type Decision = NonNullable<SecurityEvent['decision']>;
export type ResourceStatus = Provider['status'];
export type HealthStatus = NonNullable<Provider['health_status']>;
export type ReportStatus = Report['status'];
export type ReportType = Report['type'];
export type AuditAction = AuditRecord['action'];
export type AuditResource = AuditRecord['resource_type'];
export type MatchType = Provider['match_type'];
export type AuthType = NonNullable<Provider['upstream_auth']>['type'];
export type PiiType = NonNullable<Profile['pii']>['types'][number];
export type PiiMode = NonNullable<Profile['pii']>['mode'];
export type SafetyCategory = NonNullable<Profile['content_safety']>['blocked_categories'][number];
export type ResponsePiiMode = NonNullable<Profile['response_scanning']>['pii_mode'];
export type ViolationAction = NonNullable<Profile['response_scanning']>['action_on_content_violation'];
export type StreamingScan = NonNullable<Profile['response_scanning']>['streaming'];
export type TimeoutAction = Profile['action_on_timeout'];
export type FailSafeMode = NonNullable<Profile['fail_safe']>['mode'];
export type PolicyType = ContentPolicy['type'];
export type RuleKind = ContentPolicy['rules'][number]['kind'];
export type PolicyScope = ContentPolicy['scope'];
export type PolicyAction = ContentPolicy['action'];
export type ExporterType = Exporter['type'];
export type FieldMapping = Exporter['field_mapping'];
export type InspectionDetector = InspectionCheck['detector'];
export type RoleName = User['roles'][number];
