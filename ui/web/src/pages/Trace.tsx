// Every event of one request (one trace id) with its proof of inspection (each detector's status and
// score), personal data and masked prompt.
import { Alert, Badge, Card, Code, Group, Progress, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { api, unwrap } from '../api/client';
import { useSession } from '../app/session';
import { SeverityBadge, StatusBadge } from '../components/Severity';
import { Inspection } from './Inspection';
import { maskPrompt, traceEntities } from './mask-prompt';
import { useFormatTime } from '../i18n/format';
import { useEnumLabel } from '../i18n/enum-labels';

export function Trace() {
  const { t } = useTranslation();
  const formatTime = useFormatTime();
  const label = useEnumLabel();
  const { traceId = '' } = useParams();
  const { tenantQuery } = useSession();
  const events = useQuery({ queryKey: ['trace', traceId, tenantQuery()], queryFn: async () => unwrap(await api.GET('/api/v1/security-events', { params: { query: { trace_id: traceId, limit: 1000, ...tenantQuery() } } })) });
  const items = [...(events.data?.items ?? [])].sort((a, b) => a.timestamp.localeCompare(b.timestamp));
  const entitiesOf = traceEntities(items);
  return (
    <Stack>
      <Title order={2}>{t('trace.title', { id: traceId })}</Title>
      {events.error && <Alert color="red" role="alert">{events.error.message}</Alert>}
      {events.data && items.length === 0 && <Alert color="blue">{t('trace.notFound')}</Alert>}
      <Text c="dimmed" size="sm">{t('trace.events')}</Text>
      {items.map((e) => (
        <Card key={e.id} withBorder data-testid="trace-event">
          <Group justify="space-between" mb="xs">
            <Group gap="xs">
              <SeverityBadge value={e.severity} />
              <Text fw={600} data-value={e.event_type}>{label('eventType', e.event_type)}</Text>
              <StatusBadge kind="decision" value={e.decision} />
              {e.action && <Badge variant="outline">{e.action}</Badge>}
            </Group>
            <Text size="sm" c="dimmed">{formatTime(e.timestamp)} · {e.provider_name ?? '—'} · {e.model ?? ''}{e.latency_ms != null ? ` · ${t('trace.latency')} ${Math.round(e.latency_ms)} ms` : ''}</Text>
          </Group>
          {e.jailbreak_score != null && (
            <Stack gap={2} mb="xs">
              <Text size="sm">{t('events.score')}: {e.jailbreak_score.toFixed(3)}</Text>
              <Progress value={e.jailbreak_score * 100} color={e.jailbreak_score > 0.8 ? 'red' : e.jailbreak_score > 0.5 ? 'orange' : 'green'} aria-label={t('events.score')} />
            </Stack>
          )}
          <Inspection checks={e.inspection} />
          {e.pii_entities.length > 0 && (
            <Table mb="xs" aria-label={t('trace.pii')}>
              <Table.Tbody>
                {e.pii_entities.map((p, i) => (
                  <Table.Tr key={i}><Table.Td>{p.type}</Table.Td><Table.Td><Code>{p.masked}</Code></Table.Td><Table.Td>{p.start}–{p.end}</Table.Td></Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          {(e.reasons.length > 0 || e.categories.length > 0 || e.policy_ids.length > 0) && (
            <Group gap={4} mb="xs">
              <Text size="sm">{t('trace.reasons')}:</Text>
              {[...e.reasons, ...e.categories, ...e.policy_ids].map((r) => <Badge key={r} variant="light">{r}</Badge>)}
            </Group>
          )}
          {e.user_prompt && (
            <>
              <Text size="sm" fw={500}>{t('trace.prompt')}</Text>
              <Code block data-testid="masked-prompt">{maskPrompt(e.user_prompt, entitiesOf(e))}</Code>
            </>
          )}
        </Card>
      ))}
    </Stack>
  );
}
