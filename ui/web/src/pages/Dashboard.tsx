// The start page: totals, the day-by-day series, top event types and providers, severities and the
// latest critical events. Every figure links to the events list filtered the same way.
import { lazy, Suspense, useState } from 'react';
import { AreaChart, BarChart, DonutChart } from '@mantine/charts';
import { Alert, Card, Group, Paper, SegmentedControl, SimpleGrid, Skeleton, Stack, Switch, Table, Text, Title, UnstyledButton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { api, unwrap } from '../api/client';
import { useSession } from '../app/session';
import { SeverityBadge } from '../components/Severity';
import { rangeOf, type RangeKey } from './range';
import { formatAxisDay, useFormatTime } from '../i18n/format';
import { useEnumLabel } from '../i18n/enum-labels';

// The date pickers load with the custom range, not with the start page.
const InstantPicker = lazy(() => import('../components/InstantPicker').then((m) => ({ default: m.InstantPicker })));

const TOTALS = [
  { key: 'requests', filter: {} },
  { key: 'blocks', filter: { decision: 'BLOCK' } },
  { key: 'sanitizations', filter: { decision: 'SANITIZE' } },
  { key: 'monitorAlerts', total: 'monitor_alerts', filter: { event_type: 'MONITOR_ALERT' } },
  { key: 'pii', total: 'pii_detections', filter: { event_type: 'PII_DETECTED' } },
] as const;

export function Dashboard() {
  const { t, i18n } = useTranslation();
  const formatTime = useFormatTime();
  const label = useEnumLabel();
  const navigate = useNavigate();
  const { tenantQuery } = useSession();
  const [rangeKey, setRangeKey] = useState<RangeKey>('h24');
  const [custom, setCustom] = useState<{ from?: string; to?: string }>({});
  const [live, setLive] = useState(true);
  const range = rangeOf(rangeKey, custom);
  // The range is rounded to the minute so live refreshes share one cache entry per minute.
  const query = { from: range.from.slice(0, 16) + ':00.000Z', to: range.to, ...tenantQuery() };
  const refetchInterval = live ? 15_000 : false;
  const board = useQuery({ queryKey: ['dashboard', rangeKey, custom, tenantQuery()], queryFn: async () => unwrap(await api.GET('/api/v1/dashboard', { params: { query } })), refetchInterval });
  const critical = useQuery({
    queryKey: ['critical', tenantQuery()],
    queryFn: async () => unwrap(await api.GET('/api/v1/security-events', { params: { query: { severity: 'CRITICAL', limit: 8, ...tenantQuery() } } })),
    refetchInterval,
  });
  const toEvents = (filter: Record<string, string>) => navigate(`/events?${new URLSearchParams({ ...filter, from: query.from, to: query.to }).toString()}`);
  const data = board.data;
  // The API's days (2026-11-25) on the axis and in the tooltip as the console's language writes them.
  const axisDay = (day: unknown) => formatAxisDay(String(day), i18n.language);

  return (
    <Stack>
      <Group justify="space-between" wrap="wrap">
        <Title order={2}>{t('dashboard.title')}</Title>
        <Group>
          <SegmentedControl aria-label={t('dashboard.range')} value={rangeKey} onChange={(v) => setRangeKey(v as RangeKey)} data={(['h24', 'd7', 'd30', 'custom'] as const).map((k) => ({ value: k, label: t(`dashboard.${k}`) }))} />
          {rangeKey === 'custom' && (
            <Suspense fallback={<Skeleton h={36} w={380} />}>
              <InstantPicker aria-label={t('dashboard.from')} value={custom.from ?? range.from} onChange={(v) => setCustom({ ...custom, from: v ?? undefined })} w={180} />
              <InstantPicker aria-label={t('dashboard.to')} value={custom.to ?? range.to} onChange={(v) => setCustom({ ...custom, to: v ?? undefined })} w={180} />
            </Suspense>
          )}
          <Switch label={t('common.live')} checked={live} onChange={(e) => setLive(e.currentTarget.checked)} />
        </Group>
      </Group>
      {board.error && <Alert color="red" role="alert">{board.error.message}</Alert>}
      <SimpleGrid cols={{ base: 2, md: 5 }}>
        {TOTALS.map((item) => (
          <UnstyledButton key={item.key} onClick={() => toEvents(item.filter)} title={t('dashboard.openEvents')}>
            <Paper withBorder p="md" data-testid={`total-${item.key}`}>
              <Text size="sm" c="dimmed">{t(`dashboard.${item.key}`)}</Text>
              {data ? <Text fw={700} size="xl" data-testid="total-value">{data.totals['total' in item ? item.total : item.key]}</Text> : <Skeleton h={28} mt={4} />}
            </Paper>
          </UnstyledButton>
        ))}
      </SimpleGrid>
      {data && data.totals.events === 0 && <Alert color="blue">{t('dashboard.noEvents')}</Alert>}
      <Card withBorder data-testid="over-time">
        <Title order={3} size="h5" mb="sm">{t('dashboard.overTime')}</Title>
        {data ? (
          <AreaChart h={240} data={data.per_day} dataKey="date" withLegend curveType="monotone"
            xAxisProps={{ tickFormatter: axisDay }} tooltipProps={{ labelFormatter: axisDay }}
            series={[
              { name: 'requests', label: t('dashboard.requests'), color: 'indigo.6' },
              { name: 'blocks', label: t('dashboard.blocks'), color: 'red.6' },
              { name: 'sanitizations', label: t('dashboard.sanitizations'), color: 'orange.6' },
              { name: 'monitor_alerts', label: t('dashboard.monitorAlerts'), color: 'grape.6' },
            ]} />
        ) : <Skeleton h={240} />}
      </Card>
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        <Card withBorder>
          <Title order={3} size="h5" mb="sm">{t('dashboard.topTypes')}</Title>
          {data && (
            <BarChart h={220} orientation="vertical" yAxisProps={{ width: 175 }} dataKey="type" series={[{ name: 'count', color: 'indigo.6', label: t('dashboard.events') }]}
              data={Object.entries(data.events_by_type).sort((a, b) => b[1] - a[1]).slice(0, 6).map(([type, count]) => ({ type: label('eventType', type), event_type: type, count }))}
              barProps={{ className: 'clickable', onClick: (bar: { payload?: { event_type?: string } }) => bar.payload?.event_type && toEvents({ event_type: bar.payload.event_type }) }} />
          )}
        </Card>
        <Card withBorder>
          <Title order={3} size="h5" mb="sm">{t('dashboard.topProviders')}</Title>
          <Table>
            <Table.Tbody>
              {data?.top_providers_by_pii.map((p) => (
                <Table.Tr key={p.provider_id ?? 'none'}>
                  <Table.Td>{p.provider_id ? <Link to={`/events?${new URLSearchParams({ provider_id: p.provider_id, from: query.from, to: query.to })}`}>{p.provider_name ?? p.provider_id}</Link> : '—'}</Table.Td>
                  <Table.Td ta="right">{p.pii_incidents}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Card>
        <Card withBorder>
          <Title order={3} size="h5" mb="sm">{t('dashboard.bySeverity')}</Title>
          {data && (
            <DonutChart withLabelsLine withLabels h={200} chartLabel={data.totals.events} pieProps={{ className: 'clickable', onClick: (slice: { payload?: { severity?: string } }) => slice.payload?.severity && toEvents({ severity: slice.payload.severity }) }}
              data={Object.entries(data.events_by_severity).map(([severity, value]) => ({ name: label('severity', severity), severity, value, color: ({ CRITICAL: 'red.7', HIGH: 'orange.6', MEDIUM: 'yellow.6', LOW: 'blue.5', INFO: 'gray.5' } as Record<string, string>)[severity] ?? 'gray.5' }))} />
          )}
        </Card>
      </SimpleGrid>
      <Card withBorder>
        <Title order={3} size="h5" mb="sm">{t('dashboard.latestCritical')}</Title>
        <Table highlightOnHover>
          <Table.Tbody>
            {critical.data?.items.map((e) => (
              <Table.Tr key={e.id} className="clickable" onClick={() => navigate(`/events/trace/${encodeURIComponent(e.trace_id)}`)}>
                <Table.Td>{formatTime(e.timestamp)}</Table.Td>
                <Table.Td><SeverityBadge value={e.severity} /></Table.Td>
                <Table.Td>{label('eventType', e.event_type)}</Table.Td>
                <Table.Td>{e.provider_name ?? '—'}</Table.Td>
                <Table.Td><Link to={`/events/trace/${encodeURIComponent(e.trace_id)}`}>{e.trace_id}</Link></Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Card>
    </Stack>
  );
}
