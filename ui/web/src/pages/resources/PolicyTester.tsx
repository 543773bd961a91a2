// The content-policy tester under the policy form: a text run through the policy as the form holds
// it (saved or not) by the Admin API, which uses the gateway's engine. A pattern RE2 refuses comes
// back as a 400 whose details name the rule; those land on the rule's field in the form above.
import { useState } from 'react';
import { Alert, Badge, Button, Card, Code, Group, Stack, Table, Text, Textarea, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ApiError, api, unwrap } from '../../api/client';
import type { PolicyTestRequest, PolicyTestResult } from '../../api/types';

const fieldErrors = (error: unknown) => error instanceof ApiError && error.details.some((d) => d.path !== 'text');

export function PolicyTester({ data, showError }: { data: Record<string, unknown>; showError(error: unknown): void }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<PolicyTestResult | null>(null);
  const [error, setError] = useState<Error | null>(null);

  const run = async () => {
    setBusy(true);
    try {
      const body = { ...data, text } as PolicyTestRequest;
      setResult(unwrap(await api.POST('/api/v1/content-policies/test', { body })));
      setError(null);
      showError(null);
    } catch (e) {
      setResult(null);
      setError(e as Error);
      // Field errors (a rule's pattern) are shown on the form's fields, the rest here.
      showError(fieldErrors(e) ? e : null);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card withBorder mt="lg" data-testid="policy-tester">
      <Title order={3} size="h5">{t('policies.tester')}</Title>
      <Textarea label={t('policies.testText')} autosize minRows={3} maxRows={10} value={text} onChange={(e) => setText(e.currentTarget.value)} error={error instanceof ApiError ? error.details.find((d) => d.path === 'text')?.message : undefined} />
      <Group mt="sm">
        <Button onClick={() => void run()} loading={busy} data-testid="policy-test-run">{t('policies.runTest')}</Button>
      </Group>
      {error && (
        <Alert color="red" mt="sm" role="alert" data-testid="policy-test-error">{fieldErrors(error) ? t('policies.testFieldErrors') : error.message}</Alert>
      )}
      {result && (
        <Stack gap="xs" mt="sm" data-testid="policy-test-result">
          <Group gap="xs">
            {result.fired ? <Badge color="red.9" autoContrast>{t('policies.fired')}</Badge> : <Badge color="teal.9" autoContrast>{t('policies.notFired')}</Badge>}
            {result.action && <Text size="sm">{t('policies.resultAction')}: <b data-testid="policy-test-action">{result.action}</b></Text>}
            {result.reason && <Text size="sm" c="dimmed">{t(`policies.reasons.${result.reason}`)}</Text>}
            {result.detected_language && <Text size="sm" c="dimmed">{t('policies.language', { language: result.detected_language })}</Text>}
          </Group>
          {result.matches.length > 0 && (
            <Table aria-label={t('policies.matches')}>
              <Table.Thead>
                <Table.Tr><Table.Th>{t('policies.rule')}</Table.Th><Table.Th>{t('common.type')}</Table.Th><Table.Th>{t('policies.pattern')}</Table.Th><Table.Th>{t('policies.found')}</Table.Th><Table.Th>{t('policies.span')}</Table.Th></Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {result.matches.map((m, i) => (
                  <Table.Tr key={i} data-testid="policy-test-match">
                    <Table.Td>#{m.rule_index + 1}</Table.Td>
                    <Table.Td>{m.kind}</Table.Td>
                    <Table.Td><Code>{m.pattern}</Code></Table.Td>
                    <Table.Td><Code>{m.text}</Code></Table.Td>
                    <Table.Td>{m.start}–{m.end}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          {result.matches_truncated && <Text size="xs" c="dimmed">{t('policies.truncated')}</Text>}
        </Stack>
      )}
    </Card>
  );
}
