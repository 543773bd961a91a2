// Content safety through the real gateway: the guard model (a Qwen3Guard-format OpenAI-compatible peer)
// judged in-process (CONTENT_SAFETY_MODEL_URL) and through the content-safety service (CONTENT_SAFETY_URL);
// blocked categories, controversial_as_unsafe, a guard without a GPU (503, skipped silently), and
// answers blocked (451) or only alerted (monitor).
import t, { type Test } from 'tap';
import { createEventRepository, listen, type Database } from '@palisade/core';
import { forOneDatabase } from '@palisade/core/testing';
import { buildContentSafetyService, loadContentSafetyEnv, startGuardServer, type GuardServer } from '@palisade/detectors';
import { startStack, type HttpResult, type Stack } from '../testing/stack.js';

const chat = (user: string) => ({ model: 'gpt-x', messages: [{ role: 'user', content: user }] });

const RULES = [
  { match: /pipe bomb/i, safety: 'Unsafe' as const, categories: ['Violent'] },
  { match: /election/i, safety: 'Controversial' as const, categories: ['Politically Sensitive Topics'] },
  { match: /overdose/i, safety: 'Unsafe' as const, categories: ['Suicide & Self-Harm'] },
];

async function withProfile(stack: Stack, settings: Record<string, unknown>) {
  const { send } = await stack.profiled(settings);
  return (user: string, headers: Record<string, string> = {}) => send(chat(user), headers);
}

function storedEvents(db: Database) {
  const repository = createEventRepository(db);
  return async (res: HttpResult, count: number) => {
    const traceId = String(res.headers['x-service-trace-id']);
    let items: Array<{ event_type: string; action: string | null; categories: string[] }> = [];
    for (let i = 0; i < 200 && items.length < count; i++) {
      items = (await repository.list({ trace_id: traceId })).items as unknown as typeof items;
      if (items.length < count) await new Promise((r) => setTimeout(r, 50));
    }
    return items.map((e) => `${e.event_type}/${e.action}/${e.categories.join(',')}`).sort();
  };
}

async function suite(t: Test, db: Database, guard: GuardServer, stack: Stack) {
  const eventsOf = storedEvents(db);
  t.beforeEach(() => {
    guard.recover();
  });

  t.test('a prompt Unsafe in a blocked category: 403 POLICY_VIOLATION, never sent upstream', async (t) => {
    const send = await withProfile(stack, { content_safety: { enabled: true, blocked_categories: ['violence'] } });
    stack.mock.reset();
    const res = await send('How do I build a pipe bomb?');
    t.equal(res.status, 403);
    t.equal(res.json.error.code, 'POLICY_VIOLATION');
    t.equal(res.headers['x-service-decision'], 'block');
    t.equal(stack.mock.requests.length, 0);
    t.same(await eventsOf(res, 2), ['POLICY_VIOLATION/BLOCK/violence', 'REQUEST_BLOCKED/BLOCK/violence']);
    const asked = guard.chatRequests().at(-1)!.body as { messages: Array<{ role: string; content: string }> };
    t.same(asked.messages, [{ role: 'user', content: 'How do I build a pipe bomb?' }], 'the guard judged the prompt');
  });

  t.test('Unsafe in a category the profile does not block: allowed', async (t) => {
    const send = await withProfile(stack, { content_safety: { enabled: true, blocked_categories: ['sexual'] } });
    const res = await send('How do I build a pipe bomb?');
    t.equal(res.status, 200);
    t.equal(res.headers['x-service-decision'], 'allow');
  });

  t.test('Controversial blocks only with controversial_as_unsafe', async (t) => {
    const lenient = await withProfile(stack, { content_safety: { enabled: true, blocked_categories: ['political_sensitive'] } });
    t.equal((await lenient('Who should win the election?')).status, 200);
    const strict = await withProfile(stack, { content_safety: { enabled: true, blocked_categories: ['political_sensitive'], controversial_as_unsafe: true } });
    t.equal((await strict('Who should win the election?')).status, 403);
  });

  t.test('the guard without a GPU (503) or failing: the check is skipped silently', async (t) => {
    const send = await withProfile(stack, { content_safety: { enabled: true, blocked_categories: ['violence'] }, event_logging: { log_allow_decisions: true } });
    guard.fail(503);
    const res = await send('How do I build a pipe bomb?');
    t.equal(res.status, 200, 'passed: content safety is skipped, not an error');
    t.same(await eventsOf(res, 1), ['REQUEST_ALLOWED/ALLOW/'], 'no DETECTOR_ERROR, no FAIL_SAFE_TRIGGERED');
  });

  t.test('an answer Unsafe in response_blocked_categories: 451 RESPONSE_BLOCKED with reasons', async (t) => {
    const send = await withProfile(stack, { response_scanning: { enabled: true, content_safety_enabled: true, response_blocked_categories: ['self_harm'] } });
    const res = await send('I feel bad', { 'x-mock-reply': 'Take an overdose of your pills.' });
    t.equal(res.status, 451);
    t.equal(res.json.error.code, 'RESPONSE_BLOCKED');
    t.match(res.json.error.reasons, [/self_harm/]);
    t.notMatch(res.text, /overdose/, 'the answer is not delivered');
    const asked = guard.chatRequests().at(-1)!.body as { messages: Array<{ role: string; content: string }> };
    t.same(asked.messages, [{ role: 'user', content: 'I feel bad' }, { role: 'assistant', content: 'Take an overdose of your pills.' }], 'the answer judged in the context of the prompt');
    t.same(await eventsOf(res, 1), ['RESPONSE_BLOCKED/BLOCK/self_harm']);
  });

  t.test('action_on_content_violation monitor: the answer passes with RESPONSE_MONITOR_ALERT', async (t) => {
    const send = await withProfile(stack, {
      response_scanning: { enabled: true, content_safety_enabled: true, response_blocked_categories: ['self_harm'], action_on_content_violation: 'monitor' },
    });
    const res = await send('I feel bad', { 'x-mock-reply': 'Take an overdose of your pills.' });
    t.equal(res.status, 200);
    t.match(res.text, /overdose/);
    t.same(await eventsOf(res, 1), ['RESPONSE_MONITOR_ALERT/WOULD_BLOCK/self_harm']);
  });
}

t.test('content safety in-process and over HTTP', async (t) => {
  const guard = await startGuardServer({ rules: RULES });
  t.teardown(() => guard.close());
  const service = buildContentSafetyService({ env: loadContentSafetyEnv({ CONTENT_SAFETY_MODEL_URL: guard.url }), logLevel: 'silent' });
  const serviceUrl = await listen(service.app, { port: 0, host: '127.0.0.1' });
  t.teardown(() => service.app.close());

  await forOneDatabase(t, async (t, db) => {
    await t.test('in-process analyzer (CONTENT_SAFETY_MODEL_URL)', async (t) => {
      const stack = await startStack({ db, detectorEnv: { CONTENT_SAFETY_MODEL_URL: guard.url } });
      t.teardown(() => stack.close());
      await suite(t, db, guard, stack);
    });
    await t.test('the content-safety service (CONTENT_SAFETY_URL)', async (t) => {
      const stack = await startStack({ db, detectorEnv: { CONTENT_SAFETY_URL: serviceUrl } });
      t.teardown(() => stack.close());
      await suite(t, db, guard, stack);
    });
  });
});
