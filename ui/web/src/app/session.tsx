// Who is using the console (GET /api/v1/me) and which tenant they look at. Every page asks `can()`
// before it shows an action, from the permissions the Admin API itself checks.
import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api, unwrap, ApiError } from '../api/client';
import type { Me, Permission } from '../api/types';

export interface Session {
  me: Me;
  can(permission: Permission): boolean;
  /** The tenant a super-admin chose ('' = every tenant); others always act on their own. */
  tenant: string;
  setTenant(tenant: string): void;
  /** The tenant_id query to add to list calls. */
  tenantQuery(): { tenant_id?: string };
}

const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}

export function useMe() {
  return useQuery({ queryKey: ['me'], queryFn: async () => unwrap(await api.GET('/api/v1/me')), retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2 });
}

export function SessionProvider({ me, children }: { me: Me; children: ReactNode }) {
  const [tenant, setTenant] = useState('');
  const session = useMemo<Session>(
    () => ({
      me,
      can: (permission) => me.permissions.includes(permission),
      tenant,
      setTenant,
      tenantQuery: () => (me.is_super_admin && tenant ? { tenant_id: tenant } : {}),
    }),
    [me, tenant],
  );
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}
