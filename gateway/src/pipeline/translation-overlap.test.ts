// With translation on, only the threat model reads the translation: PII (and the content policies and
// content safety) read the normalized prompt, so they run while the translation call is out instead of
// after it. The translation peer here answers only once the PII detector has been called.
import t from 'tap';
import { randomUUID } from 'node:crypto';
import { compileProviderMapping, Profile } from '@palisade/core';
import { createContentPolicyEvaluator, createContentSafetyAnalyzer, createPiiDetector, createThreatDetector, type ThreatDetectRequest } from '@palisade/detectors';
import { createInProcessDecisionPoint } from '../decision/index.js';
import { createNormalizer, createTranslationClient } from '../normalizer/index.js';
import { startTranslationPeer } from '../testing/translation-peer.js';
import type { InspectionDetectors } from './detectors.js';
import { extractForInspection } from './inspected-text.js';
import { createRequestInspector } from './request-inspector.js';

const RU = 'Подскажи, пожалуйста, как написать письмо клиенту на адрес anna.schmidt@example.com о переносе встречи';
const now = new Date().toISOString();

t.test('PII runs while the translation call is out; the threat model reads the translation', async (t) => {
  let piiCalled!: () => void;
  const piiStarted = new Promise<void>((resolve) => (piiCalled = resolve));
  // Without the overlap PII would wait for the translation, which waits for PII: the client's timeout
  // then ends the translation ('unavailable'), and the threat model reads the untranslated prompt.
  const peer = await startTranslationPeer({ holdUntil: piiStarted });
  t.teardown(() => peer.close());
  const translator = createTranslationClient({ url: peer.url, timeoutMs: 2000 });
  t.teardown(() => translator.close());
  const threatModel = await createThreatDetector();
  t.teardown(() => threatModel.close());
  const pii = createPiiDetector();

  // Watches (does not change) the calls: which detector was called, in order, and what the threat model read.
  const order: string[] = [];
  const threatPrompts: string[] = [];
  const detectors: InspectionDetectors = {
    normalizer: createNormalizer({ translator }),
    pii: {
      kind: 'pii',
      detect(request, call) {
        order.push('pii');
        piiCalled();
        return pii.detect(request, call);
      },
    },
    threat: {
      kind: 'threat',
      detect(request: ThreatDetectRequest, call) {
        order.push('threat');
        threatPrompts.push(request.canonical.user_prompt);
        return threatModel.detect(request, call);
      },
    },
    contentPolicy: createContentPolicyEvaluator(),
    contentSafety: createContentSafetyAnalyzer(),
    decisionPoint: createInProcessDecisionPoint(),
    close: async () => {},
  };
  const profile = Profile.parse({
    id: randomUUID(),
    tenant_id: 'default',
    name: 'p',
    provider_id: randomUUID(),
    status: 'ACTIVE',
    created_at: now,
    updated_at: now,
    threat_detection: { enabled: true },
    pii: { enabled: true, mode: 'mask' },
    translation: { enabled: true, target_lang: 'en' },
  });
  const json = { model: 'gpt-x', messages: [{ role: 'user', content: RU }] };
  const { extraction } = extractForInspection(compileProviderMapping({ mapping_preset: 'vendor_a_chat_completions' }), json);
  const inspect = createRequestInspector(detectors);
  const inspection = await inspect({
    profile,
    snapshot: { revision: 'r1', contentPolicy: () => undefined },
    json,
    raw: Buffer.from(JSON.stringify(json)),
    extraction,
    traceId: randomUUID(),
    tenantId: 'default',
    context: {},
  });

  t.same(order, ['pii', 'threat'], 'PII first, the threat model once the translation answered');
  t.equal(peer.requests.length, 1);
  t.match(threatPrompts, [/^EN: /], 'the threat model read the translation');
  t.equal(inspection.result.effective, 'SANITIZE', 'the e-mail address found in the normalized prompt is masked');
  t.notMatch(inspection.body.toString('utf8'), 'anna.schmidt@example.com');
});
