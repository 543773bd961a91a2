// GET /api/v1/me: who the caller is, as the Admin API sees it. The Admin UI builds its navigation and
// hides the actions the API would refuse from this answer, so the roles come from the same forwarded
// headers (or the dev-user) that every other route checks.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { RoleName } from '@palisade/core';
import { routeSchema } from '../admin-api/route-schema.js';
import { PERMISSIONS, type AdminRouteContext } from './contract.js';
import { allows } from './permissions.js';

export const Me = z.object({
  username: z.string(),
  email: z.string(),
  roles: z.array(RoleName),
  /** The highest of the roles. */
  role: RoleName.nullable(),
  tenant: z.string(),
  is_super_admin: z.boolean(),
  /** What the caller may do, by the same table the routes check (permissions.ts). */
  permissions: z.array(z.enum(PERMISSIONS)),
});
export type Me = z.infer<typeof Me>;

export function registerMeRoute(app: FastifyInstance, ctx: AdminRouteContext): void {
  app.get('/api/v1/me', {
    preHandler: ctx.access.require('read'),
    schema: routeSchema({ tags: ['auth'], summary: 'The calling user: roles, tenant and permissions', response: { 200: Me } }),
    handler: async (request): Promise<Me> => {
      const p = ctx.access.principal(request);
      return {
        username: p.username,
        email: p.email,
        roles: p.roles,
        role: p.role,
        tenant: p.tenantId,
        is_super_admin: p.roles.includes('super-admin'),
        permissions: PERMISSIONS.filter((perm) => allows(p.roles, perm)),
      };
    },
  });
}
