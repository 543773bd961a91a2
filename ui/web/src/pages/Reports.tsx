// Reports (generate, status, download). The form is the report request's schema from the Admin API's
// document; an Admin API without the reports routes (an older one) answers 404 and the section says so.
import { Alert, Button, Card, Stack, Table, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ApiError, rawCall } from '../api/client';
import type { Report } from '../api/types';
import { bodySchema } from '../api/schemas';
import { useSession } from '../app/session';
import { StatusBadge } from '../components/Severity';
import { SchemaForm } from '../components/SchemaForm';
import { useEnumLabel } from '../i18n/enum-labels';
import { formatPeriodBound } from '../i18n/format';

export function Reports() {
  const { t, i18n } = useTranslation();
  const label = useEnumLabel();
  const { can } = useSession();
  const client = useQueryClient();
  const reports = useQuery({
    queryKey: ['reports'],
    queryFn: () => rawCall<Report[] | { items: Report[] }>('GET', '/api/v1/reports'),
    refetchInterval: (q) => (JSON.stringify(q.state.data ?? '').includes('PENDING') ? 3000 : false),
  });
  const generate = useMutation({
    mutationFn: (data: unknown) => rawCall('POST', '/api/v1/reports', data),
    onSuccess: () => { notifications.show({ color: 'green', message: t('common.saved') }); void client.invalidateQueries({ queryKey: ['reports'] }); },
  });
  const missing = reports.error instanceof ApiError && reports.error.status === 404;
  const schema = bodySchema('/api/v1/reports', 'post');
  const rows = Array.isArray(reports.data) ? reports.data : (reports.data?.items ?? []);
  return (
    <Stack>
      <Title order={2}>{t('reports.title')}</Title>
      {missing && <Alert color="blue" data-testid="reports-missing">{t('reports.notYet')}</Alert>}
      {reports.error && !missing && <Alert color="red" role="alert">{reports.error.message}</Alert>}
      {!missing && reports.data && can('generate-reports') && schema && (
        <Card withBorder maw={640}>
          <Title order={3} size="h5" mb="sm">{t('reports.generate')}</Title>
          <SchemaForm schema={schema} formData={{}} error={generate.error} busy={generate.isPending} onSubmit={(d) => generate.mutate(d)} />
        </Card>
      )}
      {!missing && reports.data && rows.length === 0 && <Alert color="blue">{t('reports.none')}</Alert>}
      {rows.length > 0 && (
        <Table striped>
          <Table.Thead>
            <Table.Tr><Table.Th>{t('common.type')}</Table.Th><Table.Th>{t('reports.format')}</Table.Th><Table.Th>{t('reports.period_start')}</Table.Th><Table.Th>{t('reports.period_end')}</Table.Th><Table.Th>{t('common.status')}</Table.Th><Table.Th /></Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={r.id}>
                <Table.Td>{label('reportType', r.type)}</Table.Td><Table.Td>{r.format}</Table.Td><Table.Td>{formatPeriodBound(r.period_start, i18n.language)}</Table.Td><Table.Td>{formatPeriodBound(r.period_end, i18n.language)}</Table.Td>
                <Table.Td><StatusBadge kind="reportStatus" value={r.status} /></Table.Td>
                <Table.Td>{r.status === 'COMPLETED' && <Button component="a" size="xs" variant="light" href={`/api/v1/reports/${r.id}/download`} download>{t('reports.download')}</Button>}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
