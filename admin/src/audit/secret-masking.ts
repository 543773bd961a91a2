// How an audit record's request_body is masked: the fields the resource's model marks secret, the
// spec's secret field names and credential header names (core's maskAuditBody), and any credential the
// PII detector finds inside a string (API keys, GitHub tokens, JWTs, connection strings, private keys),
// so that a secret pasted into a description or an unknown field does not reach the log either.
import type { z } from 'zod';
import {
  ApiKeyCreate,
  ContentPolicySpec,
  ExporterSpec,
  ProfileSpec,
  ProviderSpec,
  ReportSpec,
  RetentionSettingsSpec,
  SECRET_PII_TYPES,
  UserCreate,
  maskAuditBody,
  type AuditResourceType,
  type SecretSpan,
} from '@palisade/core';
import { detectPii } from '@palisade/detectors';

/** The model of the bodies written to each audited collection (create bodies; updates are subsets). */
export const AUDIT_BODY_MODELS: Readonly<Record<AuditResourceType, z.ZodType>> = {
  providers: ProviderSpec,
  profiles: ProfileSpec,
  policies: ContentPolicySpec,
  exporters: ExporterSpec,
  reports: ReportSpec,
  users: UserCreate,
  retention_settings: RetentionSettingsSpec,
  api_keys: ApiKeyCreate,
};

/** The credentials the PII detector finds in a string. */
export function findSecretSpans(text: string): readonly SecretSpan[] {
  return detectPii(text, { direction: 'output', types: SECRET_PII_TYPES });
}

/** request_body as stored and answered by the audit log. */
export function maskAuditRequestBody(resourceType: AuditResourceType, body: unknown): unknown {
  return maskAuditBody(body, { model: AUDIT_BODY_MODELS[resourceType], findSecrets: findSecretSpans });
}
