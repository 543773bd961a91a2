// Users and roles behind one interface (spec "User (in the identity provider)"), so the Admin API's
// user routes do not care whether users live in our Postgres tables or in an OpenID Connect identity
// provider (a Keycloak adapter implements the same interface later).
import type { Role, RoleListItem, RoleName, User, UserCreate, UserUpdate } from '@palisade/core';

export interface UserListQuery {
  /** Only users of these tenants; undefined = every tenant (super-admin). */
  tenantIds?: readonly string[] | undefined;
  limit: number;
  offset: number;
}

export interface IdentityProvider {
  listUsers(query: UserListQuery): Promise<{ items: User[]; total: number }>;
  /** NOT_FOUND when missing. */
  getUser(id: string): Promise<User>;
  /** CONFLICT when the username or e-mail exists (case-insensitive). */
  createUser(input: UserCreate & { tenant_id: string }): Promise<User>;
  /** NOT_FOUND, CONFLICT as above. */
  updateUser(id: string, patch: UserUpdate): Promise<User>;
  /** enabled=false blocks new logins. */
  setEnabled(id: string, enabled: boolean): Promise<User>;
  /** Irreversible; audit records naming the user stay. */
  deleteUser(id: string): Promise<void>;
  /** NOT_FOUND when the user is missing. */
  userRoles(id: string): Promise<Role[]>;
  /** NOT_FOUND user missing; CONFLICT already assigned. Resolves to the user's roles after. */
  assignRole(id: string, role: RoleName): Promise<Role[]>;
  /** NOT_FOUND user missing or role not assigned. */
  removeRole(id: string, role: RoleName): Promise<void>;
  listRoles(): Promise<RoleListItem[]>;
  /** The enabled user whose username or e-mail is `login` and whose password matches, else null. */
  verifyPassword(login: string, password: string): Promise<User | null>;
}
