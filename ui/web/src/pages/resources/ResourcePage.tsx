// One page for each configuration resource (providers, profiles, content policies, exporters): the
// list, a drawer with the schema form to create or edit, the state moves and delete with confirmation.
// What a role may not do is not shown; a 403 that still happens is shown in the form or a notice.
import { useState, type ReactNode } from 'react';
import { Alert, Button, Drawer, Group, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorText, rawCall, rawExchange } from '../../api/client';
import { bodySchema, immutableFields } from '../../api/schemas';
import { useSession } from '../../app/session';
import { ConfirmButton } from '../../components/ConfirmButton';
import { SchemaForm } from '../../components/SchemaForm';
import { fieldLabel } from '../../i18n/field-labels';
import { StatusBadge } from '../../components/Severity';

export interface ResourceRow {
  id: string;
  name: string;
  status?: string;
  managed_by?: string | null;
  [key: string]: unknown;
}

export interface Column {
  label: string;
  render(row: ResourceRow): ReactNode;
}

export interface ResourceConfig {
  title: string;
  /** e.g. /api/v1/providers */
  path: string;
  /** The custom resource kind of operator-managed records. */
  crdKind: string;
  columns: Column[];
  /** ACTIVE / ARCHIVED moves (activate, archive, reactivate) by the record's status. */
  lifecycle?: 'full' | 'activate-only';
  rowActions?(row: ResourceRow, refresh: () => Promise<void>): ReactNode;
  /** Adjusts the form's schema (`row`: the stored record being edited). Returns a copy: `schema` is shared. */
  schema?(schema: RJSFSchema, mode: 'create' | 'edit', data: Record<string, unknown>, row?: ResourceRow): RJSFSchema;
  uiSchema?(data: Record<string, unknown>, mode: 'create' | 'edit'): UiSchema;
  /** Adjusts the form as it changes (e.g. the recommended preset of a provider type). */
  onFormChange?(next: Record<string, unknown>, previous: Record<string, unknown>): Record<string, unknown>;
  /** Below the form (testers); `showError` puts an API error's field details on the form's fields. */
  formExtras?(data: Record<string, unknown>, form: { showError(error: unknown): void }): ReactNode;
  banner?: ReactNode;
}

/** Records from the operator's custom resources are managed there (API-made ones say 'api'). */
const operatorManaged = (row: ResourceRow) => Boolean(row.managed_by) && row.managed_by !== 'api';

type Editing = { mode: 'create'; data: Record<string, unknown> } | { mode: 'edit'; row: ResourceRow; data: Record<string, unknown> };

/** The record as an update body: only what PUT accepts. */
function updatable(row: ResourceRow, schema: RJSFSchema | undefined): Record<string, unknown> {
  const keys = Object.keys((schema?.properties as object | undefined) ?? {});
  return Object.fromEntries(Object.entries(row).filter(([k, v]) => keys.includes(k) && v !== null));
}

export function ResourcePage({ config }: { config: ResourceConfig }) {
  const { t } = useTranslation();
  const { can, tenantQuery } = useSession();
  const client = useQueryClient();
  const [editing, setEditing] = useState<Editing | null>(null);
  const [extraError, setExtraError] = useState<unknown>(null);
  const itemPath = `${config.path}/{id}`;
  const tenant = new URLSearchParams(tenantQuery() as Record<string, string>).toString();
  const list = useQuery({ queryKey: [config.path, tenant], queryFn: () => rawCall<{ items: ResourceRow[]; total: number }>('GET', `${config.path}?limit=1000${tenant ? `&${tenant}` : ''}`) });
  const refresh = () => client.invalidateQueries({ queryKey: [config.path] });
  const fail = (error: Error) => notifications.show({ color: 'red', title: t('common.error'), message: errorText(error, t('common.forbidden')) });

  // Accepted settings whose effect is easy to miss come back as warnings: shown until dismissed.
  const warn = (warnings: string[]) => {
    for (const message of warnings) notifications.show({ color: 'yellow', title: t('common.warning'), message, autoClose: false });
  };
  const save = useMutation({
    mutationFn: (e: { editing: Editing; data: Record<string, unknown> }) =>
      e.editing.mode === 'create' ? rawExchange('POST', config.path, e.data) : rawExchange('PUT', `${config.path}/${e.editing.row.id}`, e.data),
    onSuccess: ({ warnings }) => { setEditing(null); notifications.show({ color: 'green', message: t('common.saved') }); warn(warnings); void refresh(); },
  });
  const action = useMutation({
    mutationFn: (a: { row: ResourceRow; verb: string; method?: string }) => rawExchange(a.method ?? 'POST', `${config.path}/${a.row.id}${a.verb ? `/${a.verb}` : ''}`),
    onSuccess: ({ warnings }, a) => { notifications.show({ color: 'green', message: a.method === 'DELETE' ? t('common.deleted') : t('common.saved') }); warn(warnings); void refresh(); },
    onError: fail,
  });

  const mode = editing?.mode ?? 'create';
  const baseSchema = bodySchema(mode === 'create' ? config.path : itemPath, mode === 'create' ? 'post' : 'put');
  const schema = baseSchema && (config.schema && editing ? config.schema(baseSchema, mode, editing.data, editing.mode === 'edit' ? editing.row : undefined) : baseSchema);
  const fixed = mode === 'edit' ? immutableFields(config.path, itemPath) : [];
  const managed = editing?.mode === 'edit' && operatorManaged(editing.row);
  const readOnly = managed || !can('write');

  const open = (row?: ResourceRow) => {
    save.reset();
    setExtraError(null);
    setEditing(row ? { mode: 'edit', row, data: updatable(row, bodySchema(itemPath, 'put')) } : { mode: 'create', data: {} });
  };
  const rows = list.data?.items ?? [];
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{config.title}</Title>
        {can('write') && <Button onClick={() => open()} data-testid="create">{t('common.create')}</Button>}
      </Group>
      {config.banner}
      {list.error && <Alert color="red" role="alert">{errorText(list.error, t('common.forbidden'))}</Alert>}
      {list.data && rows.length === 0 && <Alert color="blue">{can('write') ? t('common.emptyCreate') : t('common.emptyViewer')}</Alert>}
      {rows.length > 0 && (
        // Wide rows (URLs, patterns) scroll sideways inside the page instead of running off its edge.
        <Table.ScrollContainer minWidth={900}>
          <Table highlightOnHover striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('common.name')}</Table.Th>
                {config.columns.map((c) => <Table.Th key={c.label}>{c.label}</Table.Th>)}
                <Table.Th>{t('common.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr key={row.id} data-testid="resource-row" data-name={row.name}>
                  <Table.Td><Button variant="subtle" size="compact-sm" onClick={() => open(row)}>{row.name}</Button>{operatorManaged(row) ? <Text size="xs" c="dimmed">{row.managed_by}</Text> : null}</Table.Td>
                  {config.columns.map((c) => <Table.Td key={c.label}>{c.render(row)}</Table.Td>)}
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      {can('write') && !operatorManaged(row) && <Button size="xs" variant="default" onClick={() => open(row)}>{t('common.edit')}</Button>}
                      {can('write') && !operatorManaged(row) && config.lifecycle && row.status === 'DRAFT' && <Button size="xs" color="teal.9" autoContrast onClick={() => action.mutate({ row, verb: 'activate' })}>{t('common.activate')}</Button>}
                      {can('write') && !operatorManaged(row) && config.lifecycle === 'full' && row.status === 'ACTIVE' && <Button size="xs" variant="light" color="gray" onClick={() => action.mutate({ row, verb: 'archive' })}>{t('common.archive')}</Button>}
                      {can('write') && !operatorManaged(row) && config.lifecycle === 'full' && row.status === 'ARCHIVED' && <Button size="xs" variant="light" onClick={() => action.mutate({ row, verb: 'reactivate' })}>{t('common.reactivate')}</Button>}
                      {config.rowActions?.(row, refresh)}
                      {can('delete') && !operatorManaged(row) && <ConfirmButton message={t('common.confirmDelete', { name: row.name })} onConfirm={() => action.mutate({ row, verb: '', method: 'DELETE' })}>{t('common.delete')}</ConfirmButton>}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Drawer opened={editing !== null} onClose={() => setEditing(null)} closeButtonProps={{ 'aria-label': t('common.close') }} position="right" size="xl" title={editing?.mode === 'edit' ? `${t('common.edit')}: ${editing.row.name}` : `${t('common.create')}: ${config.title}`}>
        {editing && schema && (
          <>
            {managed && <Alert color="yellow" mb="md">{t('common.readOnlyOperator', { kind: config.crdKind })}</Alert>}
            {editing.mode === 'edit' && fixed.length > 0 && (
              <Alert color="gray" mb="md" title={t('common.immutable')}>
                {fixed.map((k) => <Text key={k} size="sm"><b>{fieldLabel(t, k)}</b>: {JSON.stringify(editing.row[k] ?? null)}</Text>)}
              </Alert>
            )}
            {editing.mode === 'edit' && <Group mb="sm"><StatusBadge kind="resourceStatus" value={editing.row.status} /></Group>}
            <SchemaForm
              schema={schema}
              uiSchema={config.uiSchema?.(editing.data, editing.mode)}
              formData={editing.data}
              readOnly={readOnly}
              error={save.error ?? extraError}
              busy={save.isPending}
              onChange={(data) => setEditing((e) => e && { ...e, data: config.onFormChange ? config.onFormChange(data as Record<string, unknown>, e.data) : (data as Record<string, unknown>) })}
              onSubmit={(data) => save.mutate({ editing, data: data as Record<string, unknown> })}
              onCancel={() => setEditing(null)}
            />
            {config.formExtras?.(editing.data, { showError: setExtraError })}
          </>
        )}
      </Drawer>
    </Stack>
  );
}
