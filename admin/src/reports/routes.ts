// /api/v1/reports: request a report (202, PENDING; the worker generates it), list and read the records,
// download the file, delete. Roles (spec): operator generates, every role downloads existing reports,
// deleting is a delete (admin). A super-admin may report across tenants (no tenant_id) or on any one.
import type { FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { createReportRepository, IdParams, ListQuery, PageOf, PalisadeError, Report, ReportCreate, TenantId, type Database } from '@palisade/core';
import type { AdminRouteContext } from '../auth/contract.js';
import { routeSchema } from '../admin-api/route-schema.js';
import { CONTENT_TYPES, reportFileName } from './generate.js';
import { UTF8_BOM } from './render/csv.js';
import { REPORTS_CHANNEL } from './worker.js';

export interface ReportRouteContext extends AdminRouteContext {
  db: Database;
}

const tags = ['reports'];
const ReportListQuery = ListQuery.extend({ tenant_id: TenantId.optional() });
const ReportPage = PageOf(Report);
const DownloadQuery = z.object({ bom: z.enum(['true', 'false', '1', '0']).optional() });

export function registerReportRoutes(app: FastifyInstance, ctx: ReportRouteContext): void {
  const { access } = ctx;
  const reports = createReportRepository(ctx.db);

  async function find(request: Parameters<typeof access.principal>[0], id: string): Promise<Report> {
    const report = await reports.get(id);
    if (!report) throw new PalisadeError('NOT_FOUND', { message: { en: `report ${id} not found`, ru: `отчёт ${id} не найден` } });
    access.tenantFor(request, report.tenant_id); // another tenant's report is 403 unless super-admin
    return report;
  }

  app.post(
    '/api/v1/reports',
    {
      preHandler: access.require('generate-reports'),
      schema: routeSchema({
        tags,
        summary: 'Request a report',
        description:
          'Answers 202 with the PENDING record; a report worker generates it (typically within a minute) and it turns COMPLETED, or FAILED with `error`. The period is [period_start, period_end), at most 366 days. A super-admin without tenant_id reports across every tenant.',
        body: ReportCreate,
        response: { 202: Report },
      }),
    },
    async (request, reply) => {
      const input = ReportCreate.parse(request.body);
      const tenants = access.tenantsFor(request, input.tenant_id);
      const caller = access.principal(request);
      const report = Report.parse({
        ...input,
        id: randomUUID(),
        tenant_id: tenants?.[0] ?? caller.tenantId,
        all_tenants: tenants === undefined,
        status: 'PENDING',
        created_by: caller.username,
        created_at: ctx.now().toISOString(),
      });
      await reports.create(report);
      await ctx.db.notify(REPORTS_CHANNEL, report.id).catch(() => {}); // the workers also poll
      return reply.code(202).send(report);
    },
  );

  app.get(
    '/api/v1/reports',
    { preHandler: access.require('download-reports'), schema: routeSchema({ tags, summary: 'List reports', description: 'Newest first.', querystring: ReportListQuery, response: { 200: ReportPage } }) },
    async (request) => {
      const query = ReportListQuery.parse(request.query);
      const page = await reports.list({ tenant_ids: access.tenantsFor(request, query.tenant_id), limit: query.limit, offset: query.offset });
      return { ...page, limit: query.limit, offset: query.offset };
    },
  );

  app.get(
    '/api/v1/reports/:id',
    { preHandler: access.require('download-reports'), schema: routeSchema({ tags, summary: 'Get a report record', params: IdParams, response: { 200: Report } }) },
    async (request) => find(request, IdParams.parse(request.params).id),
  );

  app.get(
    '/api/v1/reports/:id/download',
    {
      preHandler: access.require('download-reports'),
      schema: routeSchema({
        tags,
        summary: 'Download the report file',
        description: '409 while the report is PENDING or when it FAILED. CSV: `?bom=true` prefixes a UTF-8 byte order mark (for Excel).',
        params: IdParams,
        querystring: DownloadQuery,
      }),
    },
    async (request, reply) => {
      const { id } = IdParams.parse(request.params);
      const { bom } = DownloadQuery.parse(request.query);
      const report = await find(request, id);
      if (report.status !== 'COMPLETED') {
        const message = report.status === 'PENDING'
          ? { en: `report ${id} is still being generated`, ru: `отчёт ${id} ещё формируется` }
          : { en: `report ${id} failed: ${report.error ?? 'unknown error'}`, ru: `отчёт ${id} не сформирован: ${report.error ?? 'неизвестная ошибка'}` };
        throw new PalisadeError('CONFLICT', { message });
      }
      const stored = await reports.content(id);
      if (!stored) throw new PalisadeError('NOT_FOUND', { message: { en: `report ${id} has no file`, ru: `у отчёта ${id} нет файла` } });
      const body = report.format === 'CSV' && (bom === 'true' || bom === '1') ? Buffer.concat([UTF8_BOM, stored.content]) : stored.content;
      return reply
        .header('content-type', CONTENT_TYPES[report.format])
        .header('content-disposition', `attachment; filename="${reportFileName(report)}"`)
        .header('content-length', body.length)
        .send(body);
    },
  );

  app.delete(
    '/api/v1/reports/:id',
    { preHandler: access.require('delete'), schema: routeSchema({ tags, summary: 'Delete a report and its file', params: IdParams, response: { 204: null } }) },
    async (request, reply) => {
      const { id } = IdParams.parse(request.params);
      await find(request, id);
      await reports.delete(id);
      return reply.code(204).send();
    },
  );
}
