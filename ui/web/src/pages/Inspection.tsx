// A decision's proof of inspection in the trace view: each detector that ran on each side, or was
// skipped (and why: off in the profile, nothing to check, …) or failed, with its score against the
// profile's threshold, its latency, findings and (content policies) the rules that fired.
import { Badge, Code, Group, Progress, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { InspectionCheck } from '../api/types';
import { useEnumLabel } from '../i18n/enum-labels';

const STATUS_COLOR: Record<InspectionCheck['status'], string> = { ok: 'teal.9', skipped: 'gray.7', timeout: 'orange.4', error: 'red.9', unavailable: 'red.9' };

function Score({ check }: { check: InspectionCheck }) {
  const { t } = useTranslation();
  const label = useEnumLabel();
  if (check.score == null) return <>—</>;
  const over = check.threshold != null && check.score >= check.threshold;
  return (
    <Stack gap={2} miw={120}>
      <Text size="sm">{check.score.toFixed(3)}{check.threshold != null ? ` / ${check.threshold.toFixed(2)}` : ''}</Text>
      <Progress value={check.score * 100} color={over ? 'red' : 'teal'} aria-label={t('inspection.scoreOf', { detector: label('detector', check.detector) })} size="sm" />
    </Stack>
  );
}

export function Inspection({ checks }: { checks: InspectionCheck[] }) {
  const { t } = useTranslation();
  const label = useEnumLabel();
  if (checks.length === 0) return null;
  return (
    <Stack gap={4} mb="xs">
      <Text size="sm" fw={500}>{t('inspection.title')}</Text>
      <Table aria-label={t('inspection.title')} data-testid="inspection">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('inspection.detector')}</Table.Th>
            <Table.Th>{t('inspection.side')}</Table.Th>
            <Table.Th>{t('common.status')}</Table.Th>
            <Table.Th>{t('inspection.score')}</Table.Th>
            <Table.Th>{t('trace.latency')}</Table.Th>
            <Table.Th>{t('inspection.findings')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {checks.map((c, i) => (
            <Table.Tr key={i} data-testid="inspection-check" data-detector={c.detector} data-status={c.status}>
              <Table.Td>{label('detector', c.detector)}{c.model_version ? <Text size="xs" c="dimmed">{c.model_version}</Text> : null}</Table.Td>
              <Table.Td>{t(`inspection.sides.${c.side}`)}</Table.Td>
              <Table.Td>
                <Badge color={STATUS_COLOR[c.status]} autoContrast>{t(`inspection.statuses.${c.status}`)}</Badge>
                {c.status === 'skipped' && c.reason ? <Text size="xs" c="dimmed" data-testid="skip-reason">{t(`inspection.skipReasons.${c.reason}`)}</Text> : null}
              </Table.Td>
              <Table.Td><Score check={c} /></Table.Td>
              <Table.Td>{c.latency_ms != null ? `${Math.round(c.latency_ms * 10) / 10} ms` : '—'}</Table.Td>
              <Table.Td>
                <Group gap={4}>
                  <Text size="sm">{c.findings}</Text>
                  {c.fired_rules.map((r) => <Code key={`${r.policy_id}:${r.rule_index}`}>{t('inspection.rule', { policy: r.policy_id.slice(0, 8), rule: r.rule_index + 1 })}</Code>)}
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
