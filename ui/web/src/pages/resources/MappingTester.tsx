// The mapping tester under the provider form: the five JSONPath strings (custom over preset, as the
// gateway resolves them) run by the Admin API with the gateway's extractor on a sample exchange of the
// chosen preset, which the API supplies and the user may edit.
import { useEffect, useState } from 'react';
import { Alert, Button, Card, Code, Group, SimpleGrid, Table, Text, Textarea, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ApiError, api, unwrap } from '../../api/client';
import type { MappingTestRequest, MappingTestResult } from '../../api/types';

const pretty = (value: unknown) => JSON.stringify(value, null, 2);

function parsed(text: string, label: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new Error(`${label}: ${(e as Error).message}`);
  }
}

function Extracted({ value }: { value: MappingTestResult['results'][number]['value'] }) {
  const { t } = useTranslation();
  const empty = value === null || value === '' || (Array.isArray(value) && value.length === 0);
  if (empty) return <Text c="dimmed" size="sm">{t('providers.noMatch')}</Text>;
  return <Code>{typeof value === 'string' ? value : JSON.stringify(value)}</Code>;
}

export function MappingTester({ data, showError }: { data: Record<string, unknown>; showError(error: unknown): void }) {
  const { t } = useTranslation();
  const [request, setRequest] = useState('');
  const [response, setResponse] = useState('');
  const [result, setResult] = useState<MappingTestResult | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const [busy, setBusy] = useState(false);
  const mapping = { mapping_preset: data.mapping_preset ?? null, mapping_custom: data.mapping_custom ?? null };

  /** Without bodies the API answers on the preset's sample and returns it. */
  const run = async (bodies?: { body: unknown; response_body: unknown }) => {
    setBusy(true);
    try {
      const answer = unwrap(await api.POST('/api/v1/providers/mapping-test', { body: { ...mapping, ...bodies } as MappingTestRequest }));
      setResult(answer);
      if (!bodies) {
        setRequest(pretty(answer.body));
        setResponse(pretty(answer.response_body));
      }
      setError(null);
      showError(null);
    } catch (e) {
      setResult(null);
      setError(e as Error);
      showError(e instanceof ApiError && e.details.length > 0 ? e : null);
    } finally {
      setBusy(false);
    }
  };
  // A new preset brings its own sample.
  useEffect(() => {
    if (data.mapping_preset || data.mapping_custom) void run();
  }, [data.mapping_preset]);

  const runOnBodies = () => {
    try {
      void run({ body: parsed(request, t('providers.sample')), response_body: parsed(response, t('providers.sampleResponse')) });
    } catch (e) {
      setError(e as Error);
    }
  };

  return (
    <Card withBorder mt="lg" data-testid="mapping-tester">
      <Title order={3} size="h5">{t('providers.tester')}</Title>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Textarea label={t('providers.sample')} autosize minRows={4} maxRows={12} value={request} onChange={(e) => setRequest(e.currentTarget.value)} styles={{ input: { fontFamily: 'monospace' } }} />
        <Textarea label={t('providers.sampleResponse')} autosize minRows={4} maxRows={12} value={response} onChange={(e) => setResponse(e.currentTarget.value)} styles={{ input: { fontFamily: 'monospace' } }} />
      </SimpleGrid>
      <Group mt="sm">
        <Button loading={busy} onClick={runOnBodies} data-testid="mapping-test-run">{t('providers.runTest')}</Button>
        <Button variant="subtle" disabled={busy} onClick={() => void run()}>{t('providers.useSample')}</Button>
      </Group>
      {error && <Alert color="red" mt="sm" role="alert" data-testid="mapping-test-error">{error.message}</Alert>}
      {result && (
        <Table mt="sm" aria-label={t('providers.tester')}>
          <Table.Thead>
            <Table.Tr><Table.Th>{t('providers.field')}</Table.Th><Table.Th>JSONPath</Table.Th><Table.Th>{t('providers.extracts')}</Table.Th></Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {result.results.filter((r) => r.path).map((r) => (
              <Table.Tr key={r.field} data-testid="mapping-path" data-field={r.field}>
                <Table.Td>{r.field}</Table.Td>
                <Table.Td><Code>{r.path}</Code></Table.Td>
                <Table.Td>{r.error ? <Text c="red" size="sm">{r.error}</Text> : <Extracted value={r.value} />}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Card>
  );
}
