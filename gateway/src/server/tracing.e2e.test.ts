// Traces with the OpenTelemetry SDK on: a call crossing the gateway and detectors over HTTP is one
// trace, exported over OTLP/HTTP protobuf to a receiver this test runs, with the stages as children of
// the gateway's server span and each detector service's span under the gateway's detector span.
import t from 'tap';
import { randomBytes, randomUUID } from 'node:crypto';
import { EXTRACTION_EMPTY_WARNING, listen, otelTraceIdOf } from '@palisade/core';
import { OTLP_SPAN_KIND, startTracedProcess, type ReceivedSpan } from '@palisade/core/testing';
import { buildPiiService, buildThreatService, createThreatDetector } from '@palisade/detectors';
import { buildDecisionService } from '../decision/index.js';
import { openOneDatabase } from '../testing/one-database.js';
import { startStack } from '../testing/stack.js';
import { startTranslationPeer } from '../testing/translation-peer.js';

const chat = (user: string) => ({ model: 'gpt-x', messages: [{ role: 'user', content: user }] });

t.test('a gateway call crossing detectors over HTTP is one trace', async (t) => {
  const { receiver, telemetry } = await startTracedProcess(t, {
    serviceName: 'palisade-test',
    sampler: 'parentbased_always_on',
    env: { OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=test' },
  });
  t.ok(telemetry, 'the SDK starts when an OTLP endpoint is set');

  let closeStack = async () => {};
  const db = await openOneDatabase(t, () => closeStack());
  const pii = buildPiiService({ logLevel: 'silent' });
  const threat = buildThreatService({ detector: await createThreatDetector(), logLevel: 'silent' });
  const decision = buildDecisionService({ logLevel: 'silent' });
  // The traceparent each call to the PII service carried, by its trace id.
  const piiTraceparents = new Map<string, string>();
  pii.app.addHook('onRequest', async (request) => {
    const parent = request.headers.traceparent;
    if (typeof parent === 'string') piiTraceparents.set(parent.split('-')[1]!, parent);
  });
  const [piiUrl, threatUrl, decisionUrl] = (await Promise.all([pii, threat, decision].map((s) => listen(s.app, { port: 0, host: '127.0.0.1' })))) as [string, string, string];
  t.teardown(() => Promise.all([pii, threat, decision].map((s) => s.app.close())));
  const translation = await startTranslationPeer();
  t.teardown(() => translation.close());
  const stack = await startStack({
    db,
    detectorEnv: { PII_DETECTOR_URL: piiUrl, THREAT_DETECTOR_URL: threatUrl, DECISION_POINT_URL: decisionUrl, TRANSLATION_SERVICE_URL: translation.url },
  });
  closeStack = () => stack.close();
  const { send } = await stack.profiled({ response_scanning: { enabled: true, pii_mode: 'monitor' } });

  // Text that must appear in no span attribute: a unique marker and a personal e-mail address.
  const marker = `quokka${randomBytes(6).toString('hex')}`;
  const email = `olga.${marker}@example.com`;
  const answer = await send(chat(`Please write to ${email} about the ${marker} order`));
  t.equal(answer.status, 200);
  t.equal(answer.headers['x-service-decision'], 'sanitize');
  const requestTrace = String(answer.headers['x-service-trace-id']);
  const traceId = otelTraceIdOf(requestTrace)!;
  t.ok(traceId, 'the request trace id is a UUID: the OpenTelemetry trace id without dashes');

  const inTrace = (spans: ReceivedSpan[]) => spans.filter((s) => s.traceId === traceId);
  const named = (spans: ReceivedSpan[], name: string) => spans.find((s) => s.name === name);
  const expected = ['gateway.route', 'gateway.extract', 'gateway.normalize', 'detector pii', 'detector threat', 'gateway.decision', 'chat gpt-x', 'gateway.response_scan', 'security_events.emit'];
  const spans = inTrace(
    await receiver.waitFor((all) => {
      const mine = inTrace(all);
      return expected.every((name) => named(mine, name)) && mine.filter((s) => s.kind === OTLP_SPAN_KIND.server).length >= 5;
    }),
  );
  t.ok(receiver.contentTypes.every((type) => type === 'application/x-protobuf'), 'the exporter sent OTLP protobuf');

  const root = spans.find((s) => s.parentSpanId === '')!;
  t.ok(root, 'one root span');
  t.equal(spans.filter((s) => s.parentSpanId === '').length, 1, 'exactly one root');
  t.equal(root.kind, OTLP_SPAN_KIND.server);
  t.equal(root.scope, 'palisade.gateway');
  t.equal(root.attributes['palisade.trace_id'], requestTrace);
  t.equal(root.attributes['http.response.status_code'], 200);
  t.equal(root.service, 'palisade-test');

  // The gateway's stages hang under its server span (the response side's detector spans under the scan).
  for (const name of ['gateway.route', 'gateway.extract', 'gateway.normalize', 'chat gpt-x', 'gateway.response_scan', 'security_events.emit']) {
    t.equal(named(spans, name)!.parentSpanId, root.spanId, `${name} is a child of the request span`);
  }
  const requestSide = spans.filter((s) => s.parentSpanId === root.spanId);
  for (const name of ['detector pii', 'detector threat', 'gateway.decision']) t.ok(named(requestSide, name), `${name} of the request side is a child of the request span`);
  const scan = named(spans, 'gateway.response_scan')!;
  t.ok(spans.some((s) => s.name === 'detector pii' && s.parentSpanId === scan.spanId), 'the response scan has its own PII detector span');

  // Each service called over HTTP continued the trace: its server span is the child of the caller's span.
  const serverUnder = (parent: ReceivedSpan) => spans.filter((s) => s.kind === OTLP_SPAN_KIND.server && s.parentSpanId === parent.spanId);
  const piiSpan = requestSide.find((s) => s.name === 'detector pii')!;
  t.same(serverUnder(piiSpan).map((s) => s.scope), ['palisade.pii-detector'], 'the PII service span is under the detector span');
  t.equal(piiSpan.kind, OTLP_SPAN_KIND.client);
  t.equal(piiSpan.attributes['palisade.detector.status'], 'ok');
  t.same(serverUnder(named(requestSide, 'detector threat')!).map((s) => s.scope), ['palisade.threat-detector'], 'the threat service span is under its detector span');
  t.same(serverUnder(named(requestSide, 'gateway.decision')!).map((s) => s.scope), ['palisade.decision-point'], 'the decision point span is under the decision span');

  // GenAI semantic conventions on the provider call.
  const upstream = named(spans, 'chat gpt-x')!;
  t.equal(upstream.attributes['gen_ai.operation.name'], 'chat');
  t.equal(upstream.attributes['gen_ai.request.model'], 'gpt-x');
  t.type(upstream.attributes['gen_ai.provider.name'], 'string');
  t.type(upstream.attributes['gen_ai.usage.input_tokens'], 'number', 'token usage of the answer');

  // No prompt text and no PII anywhere in the trace's attributes.
  const everyValue = spans.flatMap((s) => [s.name, ...Object.values(s.attributes), ...s.eventAttributes.flatMap((e) => Object.values(e))]).map(String);
  t.notOk(everyValue.some((v) => v.includes(marker)), 'the prompt text is in no attribute');
  t.notOk(everyValue.some((v) => v.includes('olga.')), 'the e-mail address is in no attribute');

  t.test('an incoming traceparent is continued', async (t) => {
    const parentTrace = randomBytes(16).toString('hex');
    const parentSpan = randomBytes(8).toString('hex');
    const res = await send(chat('hello there'), { traceparent: `00-${parentTrace}-${parentSpan}-01` });
    t.equal(res.status, 200);
    t.equal(otelTraceIdOf(String(res.headers['x-service-trace-id'])), parentTrace, 'X-Service-Trace-ID is the traceparent trace id');
    const spans = await receiver.waitFor((all) => all.some((s) => s.traceId === parentTrace && s.parentSpanId === parentSpan));
    const root = spans.find((s) => s.traceId === parentTrace && s.parentSpanId === parentSpan)!;
    t.equal(root.scope, 'palisade.gateway', "the gateway's span is the child of the caller's");
  });

  t.test('an unsampled request exports no span yet passes its trace on with flag 00', async (t) => {
    const parentTrace = randomBytes(16).toString('hex');
    const parentSpan = randomBytes(8).toString('hex');
    // The caller did not sample: parentbased_* samplers follow its flag.
    const res = await send(chat('Please write to ana@example.com about the parcel order'), { traceparent: `00-${parentTrace}-${parentSpan}-00` });
    t.equal(res.status, 200);
    t.equal(otelTraceIdOf(String(res.headers['x-service-trace-id'])), parentTrace, 'X-Service-Trace-ID is still the traceparent trace id');
    const sent = piiTraceparents.get(parentTrace);
    t.ok(sent, 'the PII detector got a traceparent of the same trace');
    const [, traceId, spanId, flags] = sent!.split('-');
    t.equal(traceId, parentTrace);
    t.equal(flags, '00', 'marked not sampled');
    t.match(spanId, /^[0-9a-f]{16}$/);
    t.not(spanId, '0000000000000000');
    t.not(spanId, parentSpan, "a span id of the gateway's, not the caller's");

    // A sampled call after it: once its spans are in, the unsampled one's would be too.
    const after = await send(chat('hello once more'));
    const afterTrace = otelTraceIdOf(String(after.headers['x-service-trace-id']))!;
    const spans = await receiver.waitFor((all) => all.some((s) => s.traceId === afterTrace && s.parentSpanId === '' && s.scope === 'palisade.gateway'));
    t.equal(spans.filter((s) => s.traceId === parentTrace).length, 0, 'no span of the unsampled trace was exported, by any service');
  });

  t.test('the translation call is part of the trace, under the normalize span', async (t) => {
    const translated = await stack.profiled({ translation: { enabled: true, target_lang: 'en' } });
    const res = await translated.send(chat('Пожалуйста, напишите короткое письмо коллеге о завтрашней встрече в офисе'));
    t.equal(res.status, 200);
    const traceId = otelTraceIdOf(String(res.headers['x-service-trace-id']))!;
    const call = translation.requests.find((r) => String(r.headers.traceparent).split('-')[1] === traceId);
    t.ok(call, 'the translation service got a traceparent of the request trace');
    const spans = await receiver.waitFor((all) => all.some((s) => s.traceId === traceId && s.name === 'gateway.normalize'));
    const normalize = spans.find((s) => s.traceId === traceId && s.name === 'gateway.normalize')!;
    t.equal(String(call?.headers.traceparent).split('-')[2], normalize.spanId, "its parent is the gateway's normalize span");
  });

  t.test('log lines of a traced request carry its trace_id and span_id', async (t) => {
    // A body the mapping extracts nothing from: the gateway warns on the request's logger.
    const res = await send({ model: 'gpt-x', input: 'no messages here' });
    const requestTrace = String(res.headers['x-service-trace-id']);
    const line = stack.logs.find((l) => l.msg === EXTRACTION_EMPTY_WARNING && l.trace_id === requestTrace);
    t.ok(line, 'the warning names the trace');
    const spans = await receiver.waitFor((all) => all.some((s) => s.traceId === otelTraceIdOf(requestTrace) && s.parentSpanId === ''));
    const root = spans.find((s) => s.traceId === otelTraceIdOf(requestTrace) && s.parentSpanId === '')!;
    t.equal(line?.span_id, root.spanId, "and the request span's id");
  });

  t.test('a bundle download is a trace of its own, continued by the bundle store', async (t) => {
    // The profiles made above each published a bundle, which the gateway downloaded.
    const spans = await receiver.waitFor((all) => {
      const fetches = all.filter((s) => s.name === 'bundle fetch' && s.attributes['palisade.bundle.revision'] !== undefined);
      return fetches.some((f) => all.some((s) => s.parentSpanId === f.spanId && s.kind === OTLP_SPAN_KIND.server));
    });
    const fetch = spans.find((f) => f.name === 'bundle fetch' && f.attributes['palisade.bundle.revision'] !== undefined && spans.some((s) => s.parentSpanId === f.spanId))!;
    t.equal(fetch.parentSpanId, '', 'a root: no request to continue');
    t.equal(fetch.kind, OTLP_SPAN_KIND.client);
    t.equal(fetch.scope, 'palisade.gateway');
    t.equal(fetch.attributes['http.response.status_code'], 200);
    const served = spans.find((s) => s.parentSpanId === fetch.spanId)!;
    t.equal(served.traceId, fetch.traceId, 'the bundle store continued its traceparent');
    t.equal(served.kind, OTLP_SPAN_KIND.server);
  });

  t.test('an X-Trace-ID that is a UUID is the trace id', async (t) => {
    const sent = randomUUID();
    const res = await send(chat('hello again'), { 'x-trace-id': sent });
    t.equal(res.headers['x-service-trace-id'], sent);
    const hex = otelTraceIdOf(sent)!;
    const spans = await receiver.waitFor((all) => all.some((s) => s.traceId === hex && s.parentSpanId === '' && s.scope === 'palisade.gateway'));
    t.ok(spans.some((s) => s.traceId === hex && s.name === 'detector pii'), 'the detector spans share it');
  });
});
