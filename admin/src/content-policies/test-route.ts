// POST /api/v1/content-policies/test on the Admin API: any role that reads content policies may test
// a text against a stored policy of its tenant or against the draft it is editing.
import type { FastifyInstance } from 'fastify';
import { ContentPolicyTestRequest, ContentPolicyTestResult, type ResourceStore } from '@palisade/core';
import type { ContentPolicyEvaluator } from '@palisade/detectors';
import { routeSchema } from '../admin-api/route-schema.js';
import type { AdminRouteContext } from '../auth/contract.js';
import { TenantQuery } from '../resources/routes.js';
import { createContentPolicyOperations } from './operations.js';
import { createContentPolicyTester } from './tester.js';

export interface ContentPolicyTestRouteContext extends AdminRouteContext {
  store: ResourceStore;
  evaluator?: ContentPolicyEvaluator;
}

export function registerContentPolicyTestRoute(app: FastifyInstance, ctx: ContentPolicyTestRouteContext): void {
  // Only `get` is used: reading a policy changes nothing, so there is nothing to publish.
  const policies = createContentPolicyOperations({ store: ctx.store, onChange: () => undefined });
  const tester = createContentPolicyTester({ load: policies.get, ...(ctx.evaluator ? { evaluator: ctx.evaluator } : {}) });
  app.post('/api/v1/content-policies/test', {
    preHandler: ctx.access.require('read'),
    schema: routeSchema({
      tags: ['content-policies'],
      summary: 'Test a text against a content policy',
      description:
        'Runs `text` through one policy with the content policy engine the gateway uses: a stored policy (`id`) or the fields of a draft. ' +
        'Answers whether it fires, its action, and every rule occurrence. A pattern RE2 refuses is a 400 whose details name `rules.<i>.pattern`; a text over the limit is a 400, a body over 1 MiB a 413.',
      body: ContentPolicyTestRequest,
      querystring: TenantQuery,
      response: { 200: ContentPolicyTestResult },
    }),
    handler: async (request) => tester.test(request.body, ctx.access.tenantFor(request, TenantQuery.parse(request.query).tenant_id)),
  });
}
