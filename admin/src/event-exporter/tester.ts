// The admin API's test call: one test event through the exporter's real sink, with no retries, so the
// caller learns at once whether the destination takes it ("connection refused", "TLS error: …", "HTTP 503").
import { randomUUID } from 'node:crypto';
import { createSecurityEvent, PalisadeError, type Exporter, type SecretBox, type SecurityEvent } from '@palisade/core';
import type { Logger } from 'pino';
import { createSink } from './create-sink.js';
import { createFileLocks, type FileLocks } from './file-sink.js';
import { mapEvent } from './mapping.js';

export interface ExporterTester {
  test(exporter: Exporter): Promise<{ status: 'ok' }>;
}

/** The event a test call sends: recognisable (trace id `palisade-exporter-test-…`, reason "exporter test event"). */
export function exporterTestEvent(exporter: Exporter, now = new Date()): SecurityEvent {
  return createSecurityEvent(
    {
      trace_id: `palisade-exporter-test-${randomUUID()}`,
      tenant_id: exporter.tenant_id,
      event_type: 'REQUEST_ALLOWED',
      severity: 'INFO',
      action: 'TEST',
      reasons: [`exporter test event for ${exporter.name}`],
    },
    now,
  );
}

export function createExporterTester(deps: { secrets: SecretBox; logger?: Pick<Logger, 'info' | 'warn'>; locks?: FileLocks }): ExporterTester {
  const locks = deps.locks ?? createFileLocks();
  return {
    async test(exporter) {
      const event = exporterTestEvent(exporter);
      let sink;
      try {
        sink = createSink(exporter, { secrets: deps.secrets, locks, webhookMaxRetries: 0 });
        await sink.send([{ event, mapped: mapEvent(event, exporter) }]);
      } catch (err) {
        const cause = err instanceof Error ? err.message : String(err);
        deps.logger?.warn({ exporter_id: exporter.id, type: exporter.type, cause }, 'exporter test failed');
        throw new PalisadeError('INTERNAL_ERROR', { message: `exporter test failed: ${cause}`, cause: err, details: [{ path: 'config', message: cause }] });
      } finally {
        await sink?.close();
      }
      deps.logger?.info({ exporter_id: exporter.id, type: exporter.type }, 'exporter test event delivered');
      return { status: 'ok' };
    },
  };
}
