import { useState } from 'react';
import { Alert, Code, Group, Pagination, Paper, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../api/client';
import { errorText, unwrap } from '../api/client';
import { queryEnum } from '../api/query-enums';
import type { AuditQuery, AuditRecord } from '../api/types';
import { useSession } from '../app/session';
import { useEnumLabel, useEnumOptions } from '../i18n/enum-labels';
import { useFormatTime } from '../i18n/format';

const PAGE = 50;
const PATH = '/api/v1/audit-log';

export function AuditLog() {
  const { t } = useTranslation();
  const { tenantQuery } = useSession();
  const [filters, setFilters] = useState<AuditQuery>({});
  const [page, setPage] = useState(1);
  const query = { ...filters, ...tenantQuery(), limit: PAGE, offset: (page - 1) * PAGE };
  const records = useQuery({
    queryKey: ['audit', query],
    placeholderData: keepPreviousData,
    queryFn: async () => {
      const result = await api.GET(PATH, { params: { query } });
      return { items: unwrap(result), total: Number(result.response.headers.get('x-total-count') ?? 0) };
    },
  });
  const set = (name: keyof AuditQuery, value: string | null) => { setPage(1); setFilters((f) => ({ ...f, [name]: value || undefined })); };
  return (
    <Stack>
      <Title order={2}>{t('audit.title')}</Title>
      <AuditFilters onChange={set} />
      {records.error && <Alert color="red" role="alert">{errorText(records.error, t('common.forbidden'))}</Alert>}
      <AuditTable items={records.data?.items ?? []} />
      {records.data && records.data.items.length === 0 && <Alert color="blue">{t('common.empty')}</Alert>}
      {records.data && records.data.total > PAGE && <Pagination total={Math.ceil(records.data.total / PAGE)} value={page} onChange={setPage} />}
    </Stack>
  );
}

/** The list's filters: actions and resource types are offered as words, and set as the API's values. */
export function AuditFilters({ onChange }: { onChange(name: keyof AuditQuery, value: string | null): void }) {
  const { t } = useTranslation();
  const options = useEnumOptions();
  return (
    <Paper withBorder p="sm">
      <Group align="end">
        <TextInput label={t('audit.user')} onChange={(e) => onChange('user_id', e.currentTarget.value)} />
        <Select label={t('audit.action')} clearable data={options('auditAction', queryEnum(PATH, 'action'))} onChange={(v) => onChange('action', v)} />
        <Select label={t('audit.resource')} clearable data={options('auditResource', queryEnum(PATH, 'resource_type'))} onChange={(v) => onChange('resource_type', v)} />
        <TextInput label={t('audit.resourceId')} onChange={(e) => onChange('resource_id', e.currentTarget.value)} />
      </Group>
    </Paper>
  );
}

/** The records; an action and a resource type show as words and keep the API's value in `data-value`. */
export function AuditTable({ items }: { items: readonly AuditRecord[] }) {
  const { t } = useTranslation();
  const formatTime = useFormatTime();
  const label = useEnumLabel();
  return (
    <Table striped>
      <Table.Thead>
        <Table.Tr><Table.Th>{t('audit.time')}</Table.Th><Table.Th>{t('audit.user')}</Table.Th><Table.Th>{t('audit.action')}</Table.Th><Table.Th>{t('audit.resource')}</Table.Th><Table.Th>{t('audit.path')}</Table.Th><Table.Th>{t('audit.statusCode')}</Table.Th><Table.Th>{t('audit.body')}</Table.Th></Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {items.map((r) => (
          <Table.Tr key={r.id}>
            <Table.Td>{formatTime(r.timestamp)}</Table.Td>
            <Table.Td>{r.user_id}<Text size="xs" c="dimmed">{r.user_email} · {r.user_role}</Text></Table.Td>
            <Table.Td data-value={r.action}>{label('auditAction', r.action)}</Table.Td>
            <Table.Td><span data-value={r.resource_type}>{label('auditResource', r.resource_type)}</span><Text size="xs" c="dimmed">{r.resource_id}</Text></Table.Td>
            <Table.Td><Code>{r.request_method} {r.request_path}</Code></Table.Td>
            <Table.Td>{r.response_status}</Table.Td>
            <Table.Td><Code style={{ maxWidth: 320, display: 'block', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{r.request_body == null ? '' : JSON.stringify(r.request_body)}</Code></Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
