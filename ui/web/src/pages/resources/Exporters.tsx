import { useState } from 'react';
import type { RJSFSchema } from '@rjsf/utils';
import { Badge, Button, Group, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import { rawCall } from '../../api/client';
import { bodySchema } from '../../api/schemas';
import { useSession } from '../../app/session';
import { useEnumLabel } from '../../i18n/enum-labels';
import { ResourcePage, type ResourceConfig, type ResourceRow } from './ResourcePage';

/** Sends one test event to the exporter's destination; the outcome shows beside the button. */
function SendTest({ row }: { row: ResourceRow }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: true } | { ok: false; message: string } | null>(null);
  const send = async () => {
    setBusy(true);
    try {
      await rawCall('POST', `/api/v1/exporters/${row.id}/test`);
      setOutcome({ ok: true });
      notifications.show({ color: 'green', message: t('exporters.testOk') });
    } catch (e) {
      setOutcome({ ok: false, message: (e as Error).message });
      notifications.show({ color: 'red', message: t('exporters.testFailed', { message: (e as Error).message }), autoClose: false });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Group gap={4} wrap="nowrap">
      <Button size="xs" variant="light" loading={busy} onClick={() => void send()}>{t('exporters.sendTest')}</Button>
      {outcome && (
        <Tooltip label={outcome.ok ? t('exporters.testOk') : outcome.message} multiline maw={320}>
          <Badge color={outcome.ok ? 'teal.9' : 'red.9'} autoContrast data-testid="exporter-test-result">{outcome.ok ? t('exporters.delivered') : t('exporters.failed')}</Badge>
        </Tooltip>
      )}
    </Group>
  );
}

/**
 * The edit form of an exporter of `type`. To the API an update's `config` is any object, checked
 * against the stored exporter's kind, so its schema names no field: the form shows the fields of the
 * record's own kind, as the create form does (a partial config changes only the fields it names).
 */
function editSchema(update: RJSFSchema, type: unknown): RJSFSchema {
  const kinds = (bodySchema('/api/v1/exporters', 'post')?.oneOf ?? []) as RJSFSchema[];
  const kind = kinds.find((k) => (k.properties as { type?: { enum?: unknown[] } } | undefined)?.type?.enum?.[0] === type);
  const config = (kind?.properties as Record<string, RJSFSchema> | undefined)?.config;
  return config ? { ...update, properties: { ...(update.properties as Record<string, RJSFSchema>), config } } : update;
}

export function Exporters() {
  const { t } = useTranslation();
  const label = useEnumLabel();
  const { can } = useSession();
  const config: ResourceConfig = {
    title: t('exporters.title'),
    path: '/api/v1/exporters',
    crdKind: 'EventExporter',
    columns: [
      { label: t('common.type'), render: (r) => <Badge variant="light" data-value={String(r.type)}>{label('exporterType', String(r.type))}</Badge> },
      { label: t('exporters.enabled'), render: (r) => (r.enabled ? <Badge color="teal.9" autoContrast>{t('common.yes')}</Badge> : <Badge color="gray.7" autoContrast>{t('common.no')}</Badge>) },
    ],
    rowActions: (row, refresh) => (
      <>
        {can('write') && row.managed_by !== 'operator' && (
          <Button size="xs" variant="default" onClick={() => void rawCall('PUT', `/api/v1/exporters/${row.id}`, { enabled: !row.enabled }).then(refresh, (e: Error) => notifications.show({ color: 'red', message: e.message }))}>
            {row.enabled ? t('common.disable') : t('common.enable')}
          </Button>
        )}
        {can('write') && <SendTest row={row} />}
      </>
    ),
    schema: (schema, mode, _data, row) => (mode === 'edit' && row ? editSchema(schema, row.type) : schema),
    uiSchema: () => ({
      'ui:order': ['name', 'description', 'type', 'enabled', 'config', 'filters', 'field_mapping', 'custom_mapping', '*'],
      // Header values and the SASL password are secrets: typed hidden, and a stored one is answered masked and sent back so.
      config: { headers: { additionalProperties: { 'ui:widget': 'password' } }, sasl_password: { 'ui:widget': 'password' } },
    }),
  };
  return <ResourcePage config={config} />;
}
