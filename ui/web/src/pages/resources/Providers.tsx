import { useMemo, useState } from 'react';
import { Button, Card, Code, Table, Text, Textarea, Title, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { JSONPath } from 'jsonpath-plus';
import { useTranslation } from 'react-i18next';
import { MAPPING_PRESETS, RECOMMENDED_PRESET_BY_PROVIDER_TYPE, type MappingPresetName, type ProviderTypeName } from '@palisade/mapping-presets';
import { rawCall } from '../../api/client';
import { useSession } from '../../app/session';
import { StatusBadge } from '../../components/Severity';
import { ResourcePage, type ResourceConfig, type ResourceRow } from './ResourcePage';

const SAMPLE = JSON.stringify({ model: 'model-1', messages: [{ role: 'system', content: 'You are helpful.' }, { role: 'user', content: 'Hello, summarise this.' }] }, null, 2);

/** Tests the mapping's JSONPath strings against a sample body, showing what each one extracts. */
function MappingTester({ data }: { data: Record<string, unknown> }) {
  const { t } = useTranslation();
  const [sample, setSample] = useState(SAMPLE);
  const paths = useMemo(() => {
    const preset = typeof data.mapping_preset === 'string' ? MAPPING_PRESETS[data.mapping_preset as MappingPresetName] : undefined;
    return { ...(preset ?? {}), ...((data.mapping_custom as Record<string, string> | null) ?? {}) } as Record<string, string | undefined>;
  }, [data.mapping_preset, data.mapping_custom]);
  let body: unknown;
  let parseError = '';
  try {
    body = JSON.parse(sample);
  } catch (e) {
    parseError = (e as Error).message;
  }
  return (
    <Card withBorder mt="lg">
      <Title order={3} size="h5">{t('providers.tester')}</Title>
      <Textarea label={t('providers.sample')} autosize minRows={4} maxRows={12} value={sample} onChange={(e) => setSample(e.currentTarget.value)} error={parseError || undefined} styles={{ input: { fontFamily: 'monospace' } }} />
      <Table mt="sm">
        <Table.Tbody>
          {Object.entries(paths).filter(([, p]) => p).map(([field, path]) => {
            let found: unknown[] = [];
            try {
              found = body === undefined ? [] : (JSONPath({ path: path!, json: body as object, wrap: true }) as unknown[]);
            } catch {
              found = [];
            }
            return (
              <Table.Tr key={field} data-testid="mapping-path">
                <Table.Td>{field}</Table.Td>
                <Table.Td><Code>{path}</Code></Table.Td>
                <Table.Td>{found.length ? <Code>{JSON.stringify(found.length === 1 ? found[0] : found)}</Code> : <Text c="dimmed" size="sm">{t('providers.noMatch')}</Text>}</Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Card>
  );
}

function CheckNow({ row }: { row: ResourceRow }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  return (
    <Button size="xs" variant="light" loading={busy} onClick={async () => {
      setBusy(true);
      try {
        const result = await rawCall<{ health_status?: string }>('POST', `/api/v1/providers/${row.id}/health-check`);
        notifications.show({ message: t('providers.checked', { status: result.health_status ?? '?' }) });
        await client.invalidateQueries({ queryKey: ['/api/v1/providers'] });
      } catch (e) {
        notifications.show({ color: 'red', message: (e as Error).message });
      } finally {
        setBusy(false);
      }
    }}>{t('providers.checkNow')}</Button>
  );
}

export function Providers() {
  const { t } = useTranslation();
  const { can } = useSession();
  const config: ResourceConfig = {
    title: t('providers.title'),
    path: '/api/v1/providers',
    crdKind: 'Provider',
    lifecycle: 'full',
    columns: [
      { label: t('common.status'), render: (r) => <StatusBadge value={r.status} /> },
      { label: t('providers.health'), render: (r) => (
        <Tooltip label={`${t('providers.lastError')}: ${String(r.health_error_message ?? '—')}`} disabled={!r.health_error_message}>
          <span><StatusBadge value={String(r.health_status ?? 'UNKNOWN')} /></span>
        </Tooltip>
      ) },
      { label: t('providers.latency'), render: (r) => (r.health_latency_ms != null ? `${r.health_latency_ms} ms` : '—') },
      { label: t('providers.match'), render: (r) => <Code>{`${String(r.match_type)}: ${String(r.match_value)}`}</Code> },
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
    formExtras: (data) => <MappingTester data={data} />,
  };
  return <ResourcePage config={config} />;
}
