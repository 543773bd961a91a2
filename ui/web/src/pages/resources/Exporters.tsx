import { useState } from 'react';
import { Badge, Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import { rawCall } from '../../api/client';
import { useSession } from '../../app/session';
import { ResourcePage, type ResourceConfig, type ResourceRow } from './ResourcePage';

function SendTest({ row }: { row: ResourceRow }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  return (
    <Button size="xs" variant="light" loading={busy} onClick={async () => {
      setBusy(true);
      try {
        await rawCall('POST', `/api/v1/exporters/${row.id}/test`);
        notifications.show({ color: 'green', message: t('exporters.testOk') });
      } catch (e) {
        notifications.show({ color: 'red', message: t('exporters.testFailed', { message: (e as Error).message }), autoClose: false });
      } finally {
        setBusy(false);
      }
    }}>{t('exporters.sendTest')}</Button>
  );
}

export function Exporters() {
  const { t } = useTranslation();
  const { can } = useSession();
  const config: ResourceConfig = {
    title: t('exporters.title'),
    path: '/api/v1/exporters',
    crdKind: 'EventExporter',
    columns: [
      { label: t('common.type'), render: (r) => <Badge variant="light">{String(r.type)}</Badge> },
      { label: t('exporters.enabled'), render: (r) => (r.enabled ? <Badge color="green">{t('common.yes')}</Badge> : <Badge color="gray">{t('common.no')}</Badge>) },
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
    uiSchema: () => ({ 'ui:order': ['name', 'description', 'type', 'enabled', 'config', 'filters', 'field_mapping', 'custom_mapping', '*'] }),
  };
  return <ResourcePage config={config} />;
}
