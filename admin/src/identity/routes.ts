// The spec's user and role endpoints (Admin API table), all for admin (rule 4). Users belong to a
// tenant (their tenant_id attribute): an admin manages the users of its own tenant, a super-admin
// every tenant's (rule 3).
import type { FastifyInstance, FastifyRequest, preHandlerHookHandler } from 'fastify';
import { z } from 'zod';
import { IdParams, ListQuery, PalisadeError, Role, RoleAssignment, RoleListItem, RoleName, User, UserCreate, UserPasswordReset, UserUpdate } from '@palisade/core';
import type { AdminRouteContext } from '../auth/contract.js';
import { routeSchema } from '../admin-api/route-schema.js';
import { managedExternally } from './external-identity.js';
import type { IdentityProvider } from './identity-provider.js';

const RoleParams = z.object({ id: z.string(), role_name: RoleName });
const UserListQuery = ListQuery.extend({ tenant_id: z.string().min(1).optional() });

export interface IdentityRouteDeps extends AdminRouteContext {
  identity: IdentityProvider;
}

/** What every user and role route shares: its access hook, its tag and the user it acts on. */
interface IdentityScope {
  identity: IdentityProvider;
  access: AdminRouteContext['access'];
  /** manage-users, then (external IdP) the same 409 whatever the body: validation would say 400 first. */
  admin: preHandlerHookHandler | preHandlerHookHandler[];
  tags: string[];
  /** The user, once the caller may act on its tenant (403 for another tenant unless super-admin). */
  userInScope(request: FastifyRequest): Promise<User>;
}

export function registerIdentityRoutes(app: FastifyInstance, deps: IdentityRouteDeps): void {
  const { access, identity } = deps;
  const manageUsers = access.require('manage-users');
  const scope: IdentityScope = {
    identity,
    access,
    admin: identity.external ? [manageUsers, async () => managedExternally()] : manageUsers,
    tags: ['users'],
    async userInScope(request) {
      const user = await identity.getUser(IdParams.parse(request.params).id);
      access.tenantFor(request, user.tenant_id ?? undefined);
      return user;
    },
  };
  registerUserRoutes(app, scope);
  registerUserRoleRoutes(app, scope);
  app.get('/api/v1/roles', {
    preHandler: manageUsers,
    schema: routeSchema({ tags: ['roles'], summary: 'The roles', response: { 200: z.array(RoleListItem) } }),
    handler: async () => identity.listRoles(),
  });
}

/** The user records: list, read, create, edit, block and unblock, delete, set the password. */
function registerUserRoutes(app: FastifyInstance, { identity, access, admin, tags, userInScope }: IdentityScope): void {
  app.get('/api/v1/users', {
    preHandler: admin,
    schema: routeSchema({ tags, summary: 'List users', description: 'Total count in X-Total-Count.', querystring: UserListQuery, response: { 200: z.array(User) } }),
    handler: async (request, reply) => {
      const query = UserListQuery.parse(request.query);
      const page = await identity.listUsers({ tenantIds: access.tenantsFor(request, query.tenant_id), limit: query.limit, offset: query.offset });
      reply.header('x-total-count', String(page.total));
      return page.items;
    },
  });

  app.get('/api/v1/users/:id', {
    preHandler: admin,
    schema: routeSchema({ tags, summary: 'Get a user', params: IdParams, response: { 200: User } }),
    handler: userInScope,
  });

  app.post('/api/v1/users', {
    preHandler: admin,
    schema: routeSchema({ tags, summary: 'Create a user', description: 'emailVerified is false and enabled true at creation.', body: UserCreate, response: { 201: User } }),
    handler: async (request, reply) => {
      const input = UserCreate.parse(request.body ?? {});
      const tenant = access.tenantFor(request, input.tenant_id);
      return reply.code(201).send(await identity.createUser({ ...input, tenant_id: tenant }));
    },
  });

  app.put('/api/v1/users/:id', {
    preHandler: admin,
    schema: routeSchema({ tags, summary: 'Update a user', body: UserUpdate, params: IdParams, response: { 200: User } }),
    handler: async (request) => {
      const patch = UserUpdate.parse(request.body ?? {});
      const user = await userInScope(request);
      return identity.updateUser(user.id, patch);
    },
  });

  for (const [move, enabled] of [['disable', false], ['enable', true]] as const) {
    app.post(`/api/v1/users/:id/${move}`, {
      preHandler: admin,
      schema: routeSchema({ tags, summary: `${move === 'disable' ? 'Block' : 'Unblock'} a user`, params: IdParams, response: { 200: User } }),
      handler: async (request) => identity.setEnabled((await userInScope(request)).id, enabled),
    });
  }

  app.delete('/api/v1/users/:id', {
    preHandler: admin,
    schema: routeSchema({ tags, summary: 'Delete a user (irreversible; audit records are kept)', params: IdParams, response: { 204: null } }),
    handler: async (request, reply) => {
      await identity.deleteUser((await userInScope(request)).id);
      return reply.code(204).send();
    },
  });

  app.put('/api/v1/users/:id/reset-password', {
    preHandler: admin,
    schema: routeSchema({
      tags,
      summary: "Set a user's password",
      description: 'temporary (default true): the user must change it at the next login before getting a session.',
      params: IdParams,
      body: UserPasswordReset,
      response: { 204: null },
    }),
    handler: async (request, reply) => {
      const { password, temporary } = UserPasswordReset.parse(request.body ?? {});
      await identity.resetPassword((await userInScope(request)).id, password, temporary);
      return reply.code(204).send();
    },
  });
}

/** A user's roles: read, assign, remove. Only a super-admin hands out or takes away super-admin. */
function registerUserRoleRoutes(app: FastifyInstance, { identity, access, admin, tags, userInScope }: IdentityScope): void {
  // An admin must not widen its own reach.
  function checkGrant(request: FastifyRequest, role: RoleName) {
    if (role === 'super-admin' && !access.principal(request).roles.includes('super-admin')) {
      throw new PalisadeError('FORBIDDEN', { message: { en: 'Access denied: only a super-admin can grant or revoke super-admin', ru: 'Доступ запрещён: выдать или отозвать super-admin может только super-admin' } });
    }
  }

  app.get('/api/v1/users/:id/roles', {
    preHandler: admin,
    schema: routeSchema({ tags, summary: "A user's roles", params: IdParams, response: { 200: z.array(Role) } }),
    handler: async (request) => identity.userRoles((await userInScope(request)).id),
  });

  app.post('/api/v1/users/:id/roles', {
    preHandler: admin,
    schema: routeSchema({ tags, summary: 'Assign a role', description: "Answers the user's roles after the change.", params: IdParams, body: RoleAssignment, response: { 200: z.array(Role) } }),
    handler: async (request) => {
      const { role_name } = RoleAssignment.parse(request.body ?? {});
      const user = await userInScope(request);
      checkGrant(request, role_name);
      return identity.assignRole(user.id, role_name);
    },
  });

  app.delete('/api/v1/users/:id/roles/:role_name', {
    preHandler: admin,
    schema: routeSchema({ tags, summary: 'Remove a role', params: RoleParams, response: { 204: null } }),
    handler: async (request, reply) => {
      const { role_name } = RoleParams.parse(request.params);
      const user = await userInScope(request);
      checkGrant(request, role_name);
      await identity.removeRole(user.id, role_name);
      return reply.code(204).send();
    },
  });
}
