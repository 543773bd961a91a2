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
  /** true: users live in an external IdP; the user endpoints refuse before reading any body. */
  readonly external?: boolean;
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
  /** The id of the user whose username or e-mail is `login` (case-insensitive), else null. */
  userIdForLogin(login: string): Promise<string | null>;
  /** A login attempt by username or e-mail (case-insensitive); see LoginResult. */
  passwordLogin(login: string, password: string): Promise<LoginResult>;
  /** An administrator sets the password; `temporary` makes the user change it at the next login. */
  resetPassword(id: string, password: string, temporary: boolean): Promise<void>;
  /** The user sets a new password (ends a temporary one). CONFLICT when it equals the current one. */
  changePassword(id: string, password: string): Promise<void>;
}

export type LoginResult =
  | { outcome: 'ok'; user: User; mustChangePassword: boolean }
  /** Unknown login or wrong password: the same answer, so that logins cannot be probed. */
  | { outcome: 'invalid' }
  /** Right password of a disabled user. */
  | { outcome: 'disabled'; user: User };
