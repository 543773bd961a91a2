import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { StatusBadge } from '../../components/Severity';
import { useEnumLabel } from '../../i18n/enum-labels';
import { PolicyTester } from './PolicyTester';
import { ResourcePage, type ResourceConfig } from './ResourcePage';

export function ContentPolicies() {
  const { t } = useTranslation();
  const label = useEnumLabel();
  const config: ResourceConfig = {
    title: t('policies.title'),
    path: '/api/v1/content-policies',
    crdKind: 'ContentPolicy',
    lifecycle: 'activate-only',
    columns: [
      { label: t('common.status'), render: (r) => <StatusBadge kind="resourceStatus" value={r.status} /> },
      { label: t('common.type'), render: (r) => <Badge variant="light" data-value={String(r.type)}>{label('policyType', String(r.type))}</Badge> },
      { label: t('policies.rules'), render: (r) => (Array.isArray(r.rules) ? r.rules.length : 0) },
      { label: t('policies.resultAction'), render: (r) => (r.action ? label('policyAction', String(r.action)) : '—') },
    ],
    uiSchema: () => ({ 'ui:order': ['name', 'description', 'type', 'action', 'scope', 'rules', '*'], description: { 'ui:widget': 'textarea' } }),
    formExtras: (data, form) => <PolicyTester data={data} showError={form.showError} />,
  };
  return <ResourcePage config={config} />;
}
