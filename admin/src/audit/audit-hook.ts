// Every POST, PUT, PATCH and DELETE to the Admin API leaves an audit record (spec "Audit events").
//
// The record is written in onSend — after the handler, with the final status, before the answer
// leaves — rather than in onResponse, so a client that reads the audit log right after its change
// finds it there. A failed write never fails the call; it is logged at error level with the whole
// record, so nothing is lost silently and the record can be replayed from the log.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AuditRecord, type AuditRepository, type AuditRow } from '@palisade/core';
import type { AdminAccessControl } from '../auth/access-control.js';
import { maskAuditRequestBody } from './secret-masking.js';
import { auditActionOf, createdIdOf, isAuditedMethod, isExcludedPath, pathOf, resourceOfPath, sourceIpOf } from './mapping.js';

/** The stored row: the spec's record plus the tenant the call acted on (tenant-scoped audit reads). */
export type StoredAuditRecord = AuditRecord & { tenant_id: string | null };

export interface AuditHookDeps {
  audit: AuditRepository<StoredAuditRecord & AuditRow>;
  access: AdminAccessControl;
  now: () => Date;
}

/** The audit record of a finished call, or null when the call is not audited. */
export function auditRecordOf(request: FastifyRequest, status: number, payload: unknown, deps: Pick<AuditHookDeps, 'access' | 'now'>): StoredAuditRecord | null {
  if (!isAuditedMethod(request.method)) return null;
  const path = pathOf(request.url);
  if (isExcludedPath(path)) return null;
  const resource = resourceOfPath(path);
  if (!resource) return null;
  const caller = deps.access.identify(request);
  const created = request.method === 'POST' && status >= 200 && status < 300 ? createdIdOf(payload) : null;
  return {
    id: randomUUID(),
    user_id: caller?.userId ?? 'anonymous',
    user_email: caller?.email || null,
    user_role: caller?.role ?? null,
    action: auditActionOf(request.method),
    resource_type: resource.type,
    resource_id: resource.id ?? created,
    request_method: request.method,
    request_path: path.slice(0, 2048),
    request_body: request.body === undefined ? null : maskAuditRequestBody(resource.type, request.body),
    response_status: status,
    source_ip: sourceIpOf(request.headers['x-forwarded-for'], request.socket?.remoteAddress),
    timestamp: deps.now().toISOString(),
    tenant_id: caller ? deps.access.actedTenant(request) || null : null,
  };
}

export function registerAuditHook(app: FastifyInstance, deps: AuditHookDeps): void {
  app.addHook('onSend', async (request, reply, payload) => {
    let record: StoredAuditRecord | null = null;
    try {
      record = auditRecordOf(request, reply.statusCode, payload, deps);
      if (!record) {
        if (isAuditedMethod(request.method) && !isExcludedPath(pathOf(request.url))) {
          request.log.debug({ path: pathOf(request.url) }, 'write call outside the audited resources; no audit record');
        }
        return payload;
      }
      const checked = AuditRecord.parse(record);
      await deps.audit.append({ ...checked, tenant_id: record.tenant_id });
    } catch (error) {
      request.log.error({ err: error, audit_record: record }, 'audit record could not be written');
    }
    return payload;
  });
}
