import { useState } from 'react';
import { Button, Code, Group, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { RECOMMENDED_PRESET_BY_PROVIDER_TYPE, type ProviderTypeName } from '@palisade/mapping-presets';
import { rawCall } from '../../api/client';
import type { HealthCheckResult } from '../../api/types';
import { useSession } from '../../app/session';
import { StatusBadge } from '../../components/Severity';
import { MappingTester } from './MappingTester';
import { ResourcePage, type ResourceConfig, type ResourceRow } from './ResourcePage';
import { useFormatTime } from '../../i18n/format';
import { useEnumLabel } from '../../i18n/enum-labels';

/** Runs a health check now; its result shows beside the button until the list has the new values. */
function CheckNow({ row }: { row: ResourceRow }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<HealthCheckResult | null>(null);
  const check = async () => {
    setBusy(true);
    try {
      const answer = await rawCall<HealthCheckResult>('POST', `/api/v1/providers/${row.id}/health-check`);
      setResult(answer);
      const status = answer.health_status;
      const latency = `${answer.health_latency_ms} ms`;
      notifications.show({ color: status === 'HEALTHY' ? 'green' : 'red', message: t('providers.checked', { status, latency, error: answer.health_error_message ?? '—' }) });
      await client.invalidateQueries({ queryKey: ['/api/v1/providers'] });
    } catch (e) {
      notifications.show({ color: 'red', message: (e as Error).message });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Group gap={4} wrap="nowrap" data-testid="health-check">
      <Button size="xs" variant="light" loading={busy} onClick={() => void check()}>{t('providers.checkNow')}</Button>
      {result && <span data-testid="health-check-result"><StatusBadge kind="healthStatus" value={result.health_status} /></span>}
    </Group>
  );
}

export function Providers() {
  const { t } = useTranslation();
  const label = useEnumLabel();
  const formatTime = useFormatTime();
  const { can } = useSession();
  const config: ResourceConfig = {
    title: t('providers.title'),
    path: '/api/v1/providers',
    crdKind: 'Provider',
    lifecycle: 'full',
    columns: [
      { label: t('common.status'), render: (r) => <StatusBadge kind="resourceStatus" value={r.status} /> },
      { label: t('providers.health'), render: (r) => (
        <Tooltip label={t('providers.checkedAt', { at: r.health_checked_at ? formatTime(String(r.health_checked_at)) : '—' })}>
          <span data-testid="health-status"><StatusBadge kind="healthStatus" value={String(r.health_status ?? 'UNKNOWN')} /></span>
        </Tooltip>
      ) },
      { label: t('providers.latency'), render: (r) => <span data-testid="health-latency">{r.health_latency_ms != null ? `${r.health_latency_ms} ms` : '—'}</span> },
      { label: t('providers.lastError'), render: (r) => (
        <Text size="xs" lineClamp={2} maw={220} title={r.health_error_message ? String(r.health_error_message) : undefined} data-testid="health-error">{r.health_error_message ? String(r.health_error_message) : '—'}</Text>
      ) },
      { label: t('providers.match'), render: (r) => <><Text span size="sm">{label('matchType', String(r.match_type))}:</Text> <Code>{String(r.match_value)}</Code></> },
      { label: t('providers.target'), render: (r) => <Text size="sm">{String(r.target_base_url)}{String(r.target_path ?? '')}</Text> },
      { label: t('providers.mapping'), render: (r) => String(r.mapping_preset ?? 'custom') },
    ],
    // A custom mapping is offered for the custom type (or when one is set): an empty one would be invalid.
    schema: (schema, _mode, data) => {
      if (data.provider_type === 'custom' || data.mapping_custom) return schema;
      const { mapping_custom: _omit, ...rest } = schema.properties as Record<string, unknown>;
      return { ...schema, properties: rest } as typeof schema;
    },
    rowActions: (row) => (can('write') && row.status === 'ACTIVE' ? <CheckNow row={row} /> : null),
    // The provider-type → recommended-preset rule: choosing a type proposes its preset.
    onFormChange: (next, previous) => {
      const type = next.provider_type as ProviderTypeName | undefined;
      if (type && type !== previous.provider_type) {
        const preset = RECOMMENDED_PRESET_BY_PROVIDER_TYPE[type];
        return { ...next, mapping_preset: preset, ...(type === 'custom' && !next.mapping_custom ? { mapping_custom: { prompt_path: '$.prompt' } } : {}) };
      }
      return next;
    },
    uiSchema: (data) => ({
      'ui:order': ['name', 'description', 'provider_type', 'match_type', 'match_value', 'header_name', 'priority', 'target_base_url', 'target_path', 'request_timeout_ms', 'mapping_preset', 'mapping_custom', 'upstream_auth', '*'],
      ...(data.match_type !== 'header' ? { header_name: { 'ui:widget': 'hidden' } } : {}),
      description: { 'ui:widget': 'textarea' },
      ...(data.provider_type ? { mapping_preset: { 'ui:help': t('providers.presetHint', { type: String(data.provider_type), preset: RECOMMENDED_PRESET_BY_PROVIDER_TYPE[data.provider_type as ProviderTypeName] }) } } : {}),
    }),
    formExtras: (data, form) => <MappingTester data={data} showError={form.showError} />,
  };
  return <ResourcePage config={config} />;
}
