// The sampling decision taken before any span exists: with the SDK configured for
// parentbased_traceidratio, a request gets a span exactly when the SDK's own ratio sampler would sample
// its trace id (or its caller sampled), and an unsampled one still hands on its trace with flag 00.
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { ROOT_CONTEXT } from '@opentelemetry/api';
import { SamplingDecision, TraceIdRatioBasedSampler } from '@opentelemetry/sdk-trace-base';
import { createService } from '../service/create-service.js';
import { startTracedProcess } from '../testing/otlp-receiver.js';
import { isSampled, otelTraceIdOf, UnsampledTraceContext, withTraceHeaders } from './index.js';

t.test('requests are sampled by the configured sampler before a span is made', async (t) => {
  const { receiver } = await startTracedProcess(t, { serviceName: 'sampling-test', sampler: 'parentbased_traceidratio', samplerArg: '0.5' });

  const { app } = createService({ name: 'probe', logLevel: 'silent' });
  app.get('/probe', async (request) => ({
    id: request.id,
    sampled: isSampled(request.traceContext),
    // No SDK span behind it: only the trace id is kept.
    spanless: request.traceContext instanceof UnsampledTraceContext,
    traceparent: withTraceHeaders({} as Record<string, string>, request.traceContext).traceparent,
  }));
  t.teardown(() => app.close());
  const probe = async (headers: Record<string, string> = {}) => (await app.inject({ method: 'GET', url: '/probe', headers })).json() as { id: string; sampled: boolean; spanless: boolean; traceparent?: string };

  const ratio = new TraceIdRatioBasedSampler(0.5);
  const sampledIds: string[] = [];
  const unsampledIds: string[] = [];
  for (let i = 0; i < 40; i++) {
    const answer = await probe();
    const traceId = otelTraceIdOf(answer.id)!;
    const expected = ratio.shouldSample(ROOT_CONTEXT, traceId).decision === SamplingDecision.RECORD_AND_SAMPLED;
    t.equal(answer.sampled, expected, `request ${i}: the ratio sampler's decision for its trace id`);
    t.equal(answer.spanless, !expected, 'an SDK span only when sampled');
    const [, sentTrace, spanId, flags] = answer.traceparent!.split('-');
    t.equal(sentTrace, traceId, 'traceparent carries the request trace id');
    t.match(spanId, /^[0-9a-f]{16}$/);
    t.equal(flags, expected ? '01' : '00');
    (expected ? sampledIds : unsampledIds).push(traceId);
  }
  t.ok(sampledIds.length > 0 && unsampledIds.length > 0, 'some requests of each kind');

  // An incoming traceparent's flag wins over the ratio (parent based).
  const callerTrace = () => randomBytes(16).toString('hex');
  const followed = callerTrace();
  const kept = await probe({ traceparent: `00-${followed}-${randomBytes(8).toString('hex')}-01` });
  t.ok(kept.sampled, 'a sampled caller is followed');
  const declined = callerTrace();
  const callerSpan = randomBytes(8).toString('hex');
  const dropped = await probe({ traceparent: `00-${declined}-${callerSpan}-00`, tracestate: 'vendor=opaque' });
  t.notOk(dropped.sampled, 'an unsampled caller is followed');
  t.ok(dropped.spanless);
  t.match(dropped.traceparent, new RegExp(`^00-${declined}-[0-9a-f]{16}-00$`));
  t.not(dropped.traceparent!.split('-')[2], callerSpan, 'under a span id of its own');

  // Exported: the server span of each sampled request, none of the others.
  const spans = await receiver.waitFor((all) => [...sampledIds, followed].every((id) => all.some((s) => s.traceId === id)));
  const exported = new Set(spans.map((s) => s.traceId));
  t.notOk([...unsampledIds, declined].some((id) => exported.has(id)), 'no span of an unsampled request');
  t.equal(spans.find((s) => s.traceId === sampledIds[0])!.name, 'GET /probe');
});
