// The security events list: filters in the URL (the dashboard links here), a virtualised table whose
// rows are fetched a page at a time as they scroll into view, so 100,000 events never load at once.
import { useRef } from 'react';
import { Alert, Button, Group, Paper, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { keepPreviousData, useQueries, useQuery } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { api, unwrap } from '../api/client';
import type { EventQuery, SecurityEvent } from '../api/types';
import { queryEnum } from '../api/query-enums';
import { useSession } from '../app/session';
import { InstantPicker } from '../components/InstantPicker';
import { SeverityBadge, StatusBadge } from '../components/Severity';
import { useFormatTime } from '../i18n/format';
import { useEnumLabel, useEnumOptions, type EnumKind } from '../i18n/enum-labels';

const PAGE = 200;
const ROW_HEIGHT = 40;
const FILTERS = ['event_type', 'severity', 'decision', 'provider_id', 'profile_id', 'tenant_id', 'trace_id', 'from', 'to'] as const;

function fetchPage(query: EventQuery, page: number) {
  return async () => unwrap(await api.GET('/api/v1/security-events', { params: { query: { ...query, limit: PAGE, offset: page * PAGE } } }));
}

export function Events() {
  const { t } = useTranslation();
  const formatTime = useFormatTime();
  const label = useEnumLabel();
  const options = useEnumOptions();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const { tenantQuery, me } = useSession();
  const query: EventQuery = { ...tenantQuery() };
  for (const f of FILTERS) {
    const v = params.get(f);
    if (v) (query as Record<string, string>)[f] = v;
  }
  const set = (name: string, value: string | null) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace: true });
  };
  const first = useQuery({ queryKey: ['events', query, 0], queryFn: fetchPage(query, 0), placeholderData: keepPreviousData });
  const total = first.data?.total ?? 0;

  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: total, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_HEIGHT, overscan: 20 });
  const items = virtualizer.getVirtualItems();
  const pages = [...new Set(items.map((i) => Math.floor(i.index / PAGE)))];
  const loaded = useQueries({ queries: pages.map((page) => ({ queryKey: ['events', query, page], queryFn: fetchPage(query, page), staleTime: 30_000 })) });
  const rowAt = (index: number): SecurityEvent | undefined => {
    const at = pages.indexOf(Math.floor(index / PAGE));
    return loaded[at]?.data?.items[index % PAGE];
  };

  // The choices show words; the URL and the query keep the API's value.
  const select = (name: string, title: string, kind: EnumKind) => (
    <Select key={name} label={title} clearable data={options(kind, queryEnum('/api/v1/security-events', name))} value={params.get(name)} onChange={(v) => set(name, v)} w={190} />
  );
  return (
    <Stack>
      <Title order={2}>{t('events.title')}</Title>
      <Paper withBorder p="sm">
        <Group align="end" wrap="wrap">
          {select('event_type', t('events.eventType'), 'eventType')}
          {select('severity', t('events.severity'), 'severity')}
          {select('decision', t('events.decision'), 'decision')}
          <TextInput label={t('events.provider')} value={params.get('provider_id') ?? ''} onChange={(e) => set('provider_id', e.currentTarget.value)} w={170} />
          <TextInput label={t('events.profile')} value={params.get('profile_id') ?? ''} onChange={(e) => set('profile_id', e.currentTarget.value)} w={170} />
          {me.is_super_admin && <TextInput label={t('events.tenant')} value={params.get('tenant_id') ?? ''} onChange={(e) => set('tenant_id', e.currentTarget.value)} w={130} />}
          <TextInput label={t('events.traceId')} value={params.get('trace_id') ?? ''} onChange={(e) => set('trace_id', e.currentTarget.value)} w={200} />
          <InstantPicker label={t('events.from')} value={params.get('from')} onChange={(v) => set('from', v)} clearable w={190} />
          <InstantPicker label={t('events.to')} value={params.get('to')} onChange={(v) => set('to', v)} clearable w={190} />
          <Button variant="default" onClick={() => setParams(new URLSearchParams(), { replace: true })}>{t('events.clear')}</Button>
        </Group>
      </Paper>
      {first.error && <Alert color="red" role="alert">{first.error.message}</Alert>}
      <Text size="sm" c="dimmed" data-testid="event-total">{t('events.total', { count: total })}</Text>
      {first.data && total === 0 && <Alert color="blue">{t('events.noMatch')}</Alert>}
      <div ref={scrollRef} style={{ height: 'calc(100vh - 330px)', minHeight: 300, overflow: 'auto' }} data-testid="event-scroll" tabIndex={0} aria-label={t('events.title')}>
        <Table stickyHeader layout="fixed" style={{ height: virtualizer.getTotalSize() + ROW_HEIGHT }}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={180}>{t('events.time')}</Table.Th>
              <Table.Th w={110}>{t('events.severity')}</Table.Th>
              <Table.Th w={210}>{t('events.eventType')}</Table.Th>
              <Table.Th w={130}>{t('events.decision')}</Table.Th>
              <Table.Th>{t('events.provider')}</Table.Th>
              <Table.Th w={90}>{t('events.tenant')}</Table.Th>
              <Table.Th>{t('events.traceId')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.length > 0 && <tr style={{ height: items[0]!.start }} aria-hidden />}
            {items.map((item) => {
              const e = rowAt(item.index);
              return (
                <Table.Tr key={item.key} h={ROW_HEIGHT} className="clickable" data-testid="event-row" onClick={() => e && navigate(`/events/trace/${encodeURIComponent(e.trace_id)}`)}>
                  {e ? (
                    <>
                      <Table.Td>{formatTime(e.timestamp)}</Table.Td>
                      <Table.Td><SeverityBadge value={e.severity} /></Table.Td>
                      <Table.Td>{label('eventType', e.event_type)}</Table.Td>
                      <Table.Td><StatusBadge kind="decision" value={e.decision} /></Table.Td>
                      <Table.Td>{e.provider_name ?? '—'}</Table.Td>
                      <Table.Td>{e.tenant_id}</Table.Td>
                      <Table.Td style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}><a href={`/events/trace/${encodeURIComponent(e.trace_id)}`} onClick={(ev) => ev.preventDefault()}>{e.trace_id}</a></Table.Td>
                    </>
                  ) : (
                    <Table.Td colSpan={7}>…</Table.Td>
                  )}
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </div>
    </Stack>
  );
}
