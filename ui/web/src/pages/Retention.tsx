// Retention settings (admin): the audit minimum of 1095 days is the API schema's own minimum, so the
// form refuses a lower value before it is sent, and the API would refuse it too.
import { Alert, Card, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, rawCall, unwrap } from '../api/client';
import { bodySchema } from '../api/schemas';
import { SchemaForm } from '../components/SchemaForm';
import { useFormatTime } from '../i18n/format';

const FIELDS = ['audit_retention_days', 'event_retention_days', 'detail_retention_days', 'report_retention_days'] as const;

export function Retention() {
  const { t } = useTranslation();
  const formatTime = useFormatTime();
  const client = useQueryClient();
  const settings = useQuery({ queryKey: ['retention'], queryFn: async () => unwrap(await api.GET('/api/v1/retention-settings')) });
  const save = useMutation({
    mutationFn: (data: unknown) => rawCall('PUT', '/api/v1/retention-settings', data),
    onSuccess: () => { notifications.show({ color: 'green', message: t('common.saved') }); void client.invalidateQueries({ queryKey: ['retention'] }); },
  });
  const schema = bodySchema('/api/v1/retention-settings', 'put');
  // The labels are the form's own (forms.fields); the help texts are the page's.
  const ui = { audit_retention_days: { 'ui:help': t('retention.audit_help') }, detail_retention_days: { 'ui:help': t('retention.detail_help') } };
  return (
    <Stack maw={640}>
      <Title order={2}>{t('retention.title')}</Title>
      {settings.error && <Alert color="red" role="alert">{settings.error.message}</Alert>}
      {settings.data && schema && (
        <Card withBorder>
          <SchemaForm schema={schema} uiSchema={{ 'ui:order': [...FIELDS, '*'], ...ui }} formData={Object.fromEntries(FIELDS.map((f) => [f, settings.data[f]]))} error={save.error} busy={save.isPending} onSubmit={(d) => save.mutate(d)} />
          {settings.data.updated_at && <Text size="xs" c="dimmed" mt="sm">{t('common.updated')}: {formatTime(settings.data.updated_at)}</Text>}
        </Card>
      )}
    </Stack>
  );
}
