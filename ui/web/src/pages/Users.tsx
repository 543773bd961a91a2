// Users of the identity provider (admin only; a super-admin sees every tenant): create, edit,
// enable/disable, roles, delete with confirmation.
import { useState } from 'react';
import { Alert, Badge, Button, Drawer, Group, MultiSelect, Stack, Switch, Table, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, rawCall, unwrap } from '../api/client';
import { bodySchema } from '../api/schemas';
import type { RoleName, User } from '../api/types';
import { useEnumOptions } from '../i18n/enum-labels';
import { useSession } from '../app/session';
import { ConfirmButton } from '../components/ConfirmButton';
import { SchemaForm } from '../components/SchemaForm';

type Editing = { mode: 'create' } | { mode: 'edit'; user: User };

function RoleEditor({ user }: { user: User }) {
  const { t } = useTranslation();
  const { me } = useSession();
  const client = useQueryClient();
  const roles = useQuery({ queryKey: ['roles', user.id], queryFn: async () => unwrap(await api.GET('/api/v1/users/{id}/roles', { params: { path: { id: user.id } } })) });
  const options = useEnumOptions();
  const assignable: RoleName[] = ['viewer', 'operator', 'admin', ...(me.is_super_admin ? (['super-admin'] as const) : [])];
  const all = options('role', assignable);
  const current = (roles.data ?? []).map((r) => r.name);
  const change = async (next: string[]) => {
    try {
      for (const role of next.filter((r) => !current.includes(r))) await rawCall('POST', `/api/v1/users/${user.id}/roles`, { role_name: role });
      for (const role of current.filter((r) => !next.includes(r))) await rawCall('DELETE', `/api/v1/users/${user.id}/roles/${role}`);
    } catch (e) {
      notifications.show({ color: 'red', message: (e as Error).message });
    }
    await client.invalidateQueries({ queryKey: ['roles', user.id] });
  };
  return <MultiSelect label={t('users.roles')} data={all} value={current} onChange={(v) => void change(v)} mt="md" />;
}

export function Users() {
  const { t } = useTranslation();
  const { tenantQuery } = useSession();
  const client = useQueryClient();
  const [editing, setEditing] = useState<Editing | null>(null);
  const users = useQuery({ queryKey: ['users', tenantQuery()], queryFn: async () => unwrap(await api.GET('/api/v1/users', { params: { query: { limit: 1000, ...tenantQuery() } } })) });
  const refresh = () => client.invalidateQueries({ queryKey: ['users'] });
  const save = useMutation({
    mutationFn: (data: unknown) => (editing?.mode === 'edit' ? rawCall('PUT', `/api/v1/users/${editing.user.id}`, data) : rawCall('POST', '/api/v1/users', data)),
    onSuccess: () => { setEditing(null); notifications.show({ color: 'green', message: t('common.saved') }); void refresh(); },
  });
  const act = (path: string, method = 'POST') => rawCall(method, path).then(refresh, (e: Error) => notifications.show({ color: 'red', message: e.message }));
  const schema = editing && bodySchema(editing.mode === 'create' ? '/api/v1/users' : '/api/v1/users/{id}', editing.mode === 'create' ? 'post' : 'put');
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('users.title')}</Title>
        <Button onClick={() => { save.reset(); setEditing({ mode: 'create' }); }} data-testid="create">{t('common.create')}</Button>
      </Group>
      {users.error && <Alert color="red" role="alert">{users.error.message}</Alert>}
      <Table striped highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('users.username')}</Table.Th><Table.Th>{t('users.email')}</Table.Th><Table.Th>{t('users.firstName')}</Table.Th><Table.Th>{t('users.lastName')}</Table.Th>
            <Table.Th>{t('users.tenant')}</Table.Th><Table.Th>{t('users.enabled')}</Table.Th><Table.Th>{t('common.actions')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {users.data?.map((u) => (
            <Table.Tr key={u.id} data-testid="resource-row" data-name={u.username}>
              <Table.Td>{u.username}</Table.Td><Table.Td>{u.email}</Table.Td><Table.Td>{u.firstName}</Table.Td><Table.Td>{u.lastName}</Table.Td>
              <Table.Td>{u.tenant_id ?? '—'}</Table.Td>
              <Table.Td><Switch aria-label={`${t('users.enabled')}: ${u.username}`} checked={u.enabled} onChange={() => void act(`/api/v1/users/${u.id}/${u.enabled ? 'disable' : 'enable'}`)} /></Table.Td>
              <Table.Td>
                <Group gap={4} wrap="nowrap">
                  <Button size="xs" variant="default" onClick={() => { save.reset(); setEditing({ mode: 'edit', user: u }); }}>{t('common.edit')}</Button>
                  <ConfirmButton message={t('common.confirmDelete', { name: u.username })} onConfirm={() => void act(`/api/v1/users/${u.id}`, 'DELETE')}>{t('common.delete')}</ConfirmButton>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {users.data?.length === 0 && <Alert color="blue">{t('common.emptyCreate')}</Alert>}
      <Drawer opened={editing !== null} onClose={() => setEditing(null)} position="right" size="lg" title={editing?.mode === 'edit' ? `${t('common.edit')}: ${editing.user.username}` : `${t('common.create')}: ${t('users.title')}`}>
        {editing && schema && (
          <>
            {editing.mode === 'edit' && <Badge mb="sm">{editing.user.enabled ? t('users.enabled') : t('common.disable')}</Badge>}
            <SchemaForm
              schema={schema}
              uiSchema={{ password: { 'ui:widget': 'password' } }}
              formData={editing.mode === 'edit' ? { username: editing.user.username, email: editing.user.email, first_name: editing.user.firstName, last_name: editing.user.lastName } : {}}
              error={save.error}
              busy={save.isPending}
              onSubmit={(data) => save.mutate(data)}
              onCancel={() => setEditing(null)}
            />
            {editing.mode === 'edit' && <RoleEditor user={editing.user} />}
          </>
        )}
      </Drawer>
    </Stack>
  );
}
