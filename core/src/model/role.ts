// Roles of the identity provider and the rule "with several roles the highest privilege applies".
import { z } from 'zod';

export const ROLE_NAMES = ['admin', 'operator', 'viewer', 'super-admin'] as const;
export const RoleName = z.enum(ROLE_NAMES, {
  error: (iss) => `invalid role name ${JSON.stringify(iss.input)}; expected one of ${ROLE_NAMES.join(', ')}`,
});
export type RoleName = z.infer<typeof RoleName>;

/** Privilege order: each role can do everything the lower ones can. */
export const ROLE_RANK: Readonly<Record<RoleName, number>> = { viewer: 1, operator: 2, admin: 3, 'super-admin': 4 };

export const ROLE_DESCRIPTIONS: Readonly<Record<RoleName, string>> = {
  admin: 'Full access within its tenant: users, roles, deletes, audit log, retention',
  operator: 'Create and edit providers, profiles, content policies, exporters; generate reports',
  viewer: 'Read-only access; may download existing reports',
  'super-admin': 'Admin across all tenants',
};

export function isRoleName(name: string): name is RoleName {
  return (ROLE_NAMES as readonly string[]).includes(name);
}

/** The highest known role among `roles` (group names, case-insensitive), or null: no role, no access. */
export function highestRole(roles: Iterable<string>): RoleName | null {
  let best: RoleName | null = null;
  for (const raw of roles) {
    const name = raw.trim().toLowerCase();
    if (isRoleName(name) && (best === null || ROLE_RANK[name] > ROLE_RANK[best])) best = name;
  }
  return best;
}

/** Whether any of `roles` is at least `required`. */
export function hasRoleAtLeast(roles: Iterable<string>, required: RoleName): boolean {
  const best = highestRole(roles);
  return best !== null && ROLE_RANK[best] >= ROLE_RANK[required];
}

/** Role record of the identity provider. */
export const Role = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  composite: z.boolean(),
  clientRole: z.boolean(),
  containerId: z.string(),
});
export type Role = z.infer<typeof Role>;

/** Item of GET /roles. */
export const RoleListItem = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  description: z.string().nullable().default(null),
});
export type RoleListItem = z.infer<typeof RoleListItem>;

/** Body of POST /users/{id}/roles. */
export const RoleAssignment = z.object({ role_name: RoleName });
export type RoleAssignment = z.infer<typeof RoleAssignment>;
