import { useState } from 'react';
import { Alert, Code, Group, Pagination, Paper, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../api/client';
import { errorText, unwrap } from '../api/client';
import type { AuditQuery } from '../api/types';
import { useSession } from '../app/session';
import { useFormatTime } from '../i18n/format';

const PAGE = 50;
const RESOURCES = ['providers', 'profiles', 'policies', 'exporters', 'reports', 'users', 'retention_settings'];

export function AuditLog() {
  const { t } = useTranslation();
  const formatTime = useFormatTime();
  const { tenantQuery } = useSession();
  const [filters, setFilters] = useState<AuditQuery>({});
  const [page, setPage] = useState(1);
  const query = { ...filters, ...tenantQuery(), limit: PAGE, offset: (page - 1) * PAGE };
  const records = useQuery({
    queryKey: ['audit', query],
    placeholderData: keepPreviousData,
    queryFn: async () => {
      const result = await api.GET('/api/v1/audit-log', { params: { query } });
      return { items: unwrap(result), total: Number(result.response.headers.get('x-total-count') ?? 0) };
    },
  });
  const set = (name: keyof AuditQuery, value: string | null) => { setPage(1); setFilters((f) => ({ ...f, [name]: value || undefined })); };
  return (
    <Stack>
      <Title order={2}>{t('audit.title')}</Title>
      <Paper withBorder p="sm">
        <Group align="end">
          <TextInput label={t('audit.user')} onChange={(e) => set('user_id', e.currentTarget.value)} />
          <Select label={t('audit.action')} clearable data={['CREATE', 'UPDATE', 'DELETE']} onChange={(v) => set('action', v)} />
          <Select label={t('audit.resource')} clearable data={RESOURCES} onChange={(v) => set('resource_type', v)} />
          <TextInput label={t('audit.resourceId')} onChange={(e) => set('resource_id', e.currentTarget.value)} />
        </Group>
      </Paper>
      {records.error && <Alert color="red" role="alert">{errorText(records.error, t('common.forbidden'))}</Alert>}
      <Table striped>
        <Table.Thead>
          <Table.Tr><Table.Th>{t('audit.time')}</Table.Th><Table.Th>{t('audit.user')}</Table.Th><Table.Th>{t('audit.action')}</Table.Th><Table.Th>{t('audit.resource')}</Table.Th><Table.Th>{t('audit.path')}</Table.Th><Table.Th>{t('audit.statusCode')}</Table.Th><Table.Th>{t('audit.body')}</Table.Th></Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {records.data?.items.map((r) => (
            <Table.Tr key={r.id}>
              <Table.Td>{formatTime(r.timestamp)}</Table.Td>
              <Table.Td>{r.user_id}<Text size="xs" c="dimmed">{r.user_email} · {r.user_role}</Text></Table.Td>
              <Table.Td>{r.action}</Table.Td>
              <Table.Td>{r.resource_type}<Text size="xs" c="dimmed">{r.resource_id}</Text></Table.Td>
              <Table.Td><Code>{r.request_method} {r.request_path}</Code></Table.Td>
              <Table.Td>{r.response_status}</Table.Td>
              <Table.Td><Code style={{ maxWidth: 320, display: 'block', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{r.request_body == null ? '' : JSON.stringify(r.request_body)}</Code></Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {records.data && records.data.items.length === 0 && <Alert color="blue">{t('common.empty')}</Alert>}
      {records.data && records.data.total > PAGE && <Pagination total={Math.ceil(records.data.total / PAGE)} value={page} onChange={setPage} />}
    </Stack>
  );
}
