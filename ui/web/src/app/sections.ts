// The console's sections in navigation order, with the permission each needs (spec: the users page is
// for admins only; audit and retention are admin rights too).
import type { Permission } from '../api/types';
import type { Texts } from '../i18n/en';

export interface Section {
  path: string;
  label: keyof Texts['nav'];
  needs: Permission;
}

export const SECTIONS: readonly Section[] = [
  { path: '/', label: 'dashboard', needs: 'read' },
  { path: '/events', label: 'events', needs: 'read' },
  { path: '/providers', label: 'providers', needs: 'read' },
  { path: '/profiles', label: 'profiles', needs: 'read' },
  { path: '/content-policies', label: 'policies', needs: 'read' },
  { path: '/exporters', label: 'exporters', needs: 'read' },
  { path: '/reports', label: 'reports', needs: 'download-reports' },
  { path: '/users', label: 'users', needs: 'manage-users' },
  { path: '/retention', label: 'retention', needs: 'manage-retention' },
  { path: '/audit-log', label: 'audit', needs: 'read-audit' },
];
