import { Alert, Badge, Text } from '@mantine/core';
import type { RJSFSchema } from '@rjsf/utils';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { rawCall } from '../../api/client';
import { StatusBadge } from '../../components/Severity';
import { ResourcePage, type ResourceConfig, type ResourceRow } from './ResourcePage';

type Page = { items: ResourceRow[] };

/** A string field offered as a choice of records (id → name). */
function choice(schema: RJSFSchema, field: string, rows: ResourceRow[], many = false): RJSFSchema {
  const props = { ...(schema.properties as Record<string, RJSFSchema>) };
  if (!props[field]) return schema;
  const ids = rows.map((r) => r.id);
  if (ids.length === 0) return schema;
  props[field] = many ? { ...props[field], items: { type: 'string', enum: ids }, uniqueItems: true } : { ...props[field], enum: ids };
  return { ...schema, properties: props };
}

export function Profiles() {
  const { t } = useTranslation();
  const providers = useQuery({ queryKey: ['/api/v1/providers', 'active'], queryFn: () => rawCall<Page>('GET', '/api/v1/providers?status=ACTIVE&limit=1000') });
  const policies = useQuery({ queryKey: ['/api/v1/content-policies', 'active'], queryFn: () => rawCall<Page>('GET', '/api/v1/content-policies?status=ACTIVE&limit=1000') });
  const names = new Map((providers.data?.items ?? []).map((p) => [p.id, p.name]));
  const config: ResourceConfig = {
    title: t('profiles.title'),
    path: '/api/v1/profiles',
    crdKind: 'SecurityProfile',
    lifecycle: 'full',
    banner: <Text size="sm" c="dimmed">{t('profiles.onlyActive')}</Text>,
    columns: [
      { label: t('common.status'), render: (r) => <StatusBadge kind="resourceStatus" value={r.status} /> },
      { label: t('profiles.provider'), render: (r) => names.get(String(r.provider_id)) ?? String(r.provider_id) },
      { label: t('profiles.monitor'), render: (r) => (r.monitor_only ? <Badge color="grape" variant="filled">{t('profiles.monitor')}</Badge> : '—') },
    ],
    // Only ACTIVE providers and policies are offered (the API refuses the others).
    schema: (schema) => choice(choice(schema, 'provider_id', providers.data?.items ?? []), 'content_policy_ids', policies.data?.items ?? [], true),
    uiSchema: (data) => ({
      // The choices show names; the values are the ids (the enum set by `choice`).
      provider_id: { 'ui:enumNames': (providers.data?.items ?? []).map((p) => p.name) },
      content_policy_ids: { items: { 'ui:enumNames': (policies.data?.items ?? []).map((p) => p.name) } },
      'ui:order': ['name', 'provider_id', 'monitor_only', 'threat_detection', 'pii', 'translation', 'content_safety', 'content_policy_ids', 'response_scanning', 'fail_safe', 'detector_timeout_ms', 'action_on_timeout', 'action_on_detector_error', 'block_status_code', 'event_logging', '*'],
      ...(data.monitor_only ? { 'ui:description': t('profiles.monitorHint') } : {}),
    }),
    formExtras: (data) => (data.monitor_only ? <Alert color="grape" mt="md">{t('profiles.monitorHint')}</Alert> : null),
  };
  return <ResourcePage config={config} />;
}
