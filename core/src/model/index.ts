// One zod model per resource; see each file for the rules it encodes. The generic building blocks of
// common.ts (Name, Host, withInput, …) stay internal so that their short names cannot clash with
// other modules re-exported by the package root.
export {
  omitUnchanged,
  PALISADE_VERSION,
  Uuid,
  IsoDateTime,
  TenantId,
  TENANT_ID_PATTERN,
  TENANT_ID_MAX_LENGTH,
  LanguageCode,
  LIFECYCLE_STATUSES,
  LifecycleStatus,
  MANAGED_BY,
  ManagedBy,
  ListQuery,
  IdParams,
  PageOf,
  updateShape,
  type UpdateOf,
} from './common.js';
export * from './secret.js';
export * from './languages.js';
export * from './pii.js';
export * from './content-safety.js';
export * from './security-event.js';
export * from './provider.js';
export * from './profile.js';
export * from './profile-warnings.js';
export * from './content-policy.js';
export * from './exporter.js';
export * from './exporter-configs.js';
export * from './audit-record.js';
export * from './report.js';
export * from './retention-settings.js';
export * from './role.js';
export * from './user.js';
export * from './api-key.js';
export * from './usage.js';
export * from './content-policy-test.js';
export * from './mapping-test.js';
