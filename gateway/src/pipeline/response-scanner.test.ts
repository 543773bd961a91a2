// The buffered answer's tool calls, in each vendor format, with the real in-process detectors and
// decision point: their arguments are scanned with the answer text, masked inside the arguments' JSON
// strings (the arguments stay JSON of the same shape), blocked in block mode, and recorded as findings.
import t from 'tap';
import { randomUUID } from 'node:crypto';
import { compileProviderMapping, isPalisadeError, Profile, type SecurityEvent } from '@palisade/core';
import { createContentPolicyEvaluator, createContentSafetyAnalyzer, createPiiDetector } from '@palisade/detectors';
import { createInProcessDecisionPoint } from '../decision/index.js';
import { createNormalizer } from '../normalizer/index.js';
import type { UpstreamResponse } from '../upstream/index.js';
import type { InspectionDetectors } from './detectors.js';
import { createResponseScanner } from './response-scanner.js';

const now = new Date().toISOString();
const profileOf = (response_scanning: Record<string, unknown>) =>
  Profile.parse({ id: randomUUID(), tenant_id: 'default', name: 'p', provider_id: randomUUID(), status: 'ACTIVE', created_at: now, updated_at: now, response_scanning: { enabled: true, ...response_scanning } });

const detectors: InspectionDetectors = {
  normalizer: createNormalizer(),
  pii: createPiiDetector(),
  threat: undefined,
  contentPolicy: createContentPolicyEvaluator(),
  contentSafety: createContentSafetyAnalyzer(),
  decisionPoint: createInProcessDecisionPoint(),
  close: async () => {},
};
const emitted: SecurityEvent[] = [];
const scanner = createResponseScanner(detectors, { events: { emitLater: (build) => void emitted.push(...[build()].flat()) } });

const answer = (body: unknown): UpstreamResponse => {
  const text = JSON.stringify(body);
  return { status: 200, headers: {}, body: Buffer.from(text), contentType: 'application/json', isEventStream: false, text, durationMs: 1, attempts: 1 };
};
const scan = (preset: string, body: unknown, response_scanning: Record<string, unknown>) =>
  scanner({
    profile: profileOf(response_scanning),
    snapshot: { revision: 'r1', contentPolicy: () => undefined },
    mapping: compileProviderMapping({ mapping_preset: preset }),
    answer: answer(body),
    systemPrompt: '',
    traceId: randomUUID(),
    tenantId: 'default',
    context: {},
  });
const mask = { pii_mode: 'mask', pii_types: ['EMAIL', 'CREDIT_CARD'] };

// The arguments: a value in a nested string, one written with a JSON escape, a number beside them.
const ARGS = { to: 'john.smith@example.org', cc: ['anna\u0040example.com'], subject: 'hello', n: 3 };
const ARGS_TEXT = JSON.stringify(ARGS).replace('anna@', 'anna\\u0040');
const MASKED = { to: 'j***@example.org', cc: ['a***@example.com'], subject: 'hello', n: 3 };

const FORMATS: Array<{ name: string; preset: string; body: (args: string, tool?: string) => unknown; args: (body: unknown) => unknown }> = [
  {
    name: 'vendor_a chat tool_calls',
    preset: 'vendor_a_chat_completions',
    body: (args, tool = 'send_mail') => ({ choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: tool, arguments: args } }] } }] }),
    args: (b) => (b as { choices: [{ message: { tool_calls: [{ function: { arguments: string } }] } }] }).choices[0].message.tool_calls[0].function.arguments,
  },
  {
    name: 'vendor_c chat (vendor_a compatible)',
    preset: 'vendor_c_chat',
    body: (args, tool = 'send_mail') => ({ choices: [{ index: 0, message: { role: 'assistant', content: 'calling', tool_calls: [{ id: 'c1', type: 'function', function: { name: tool, arguments: args } }] } }] }),
    args: (b) => (b as { choices: [{ message: { tool_calls: [{ function: { arguments: string } }] } }] }).choices[0].message.tool_calls[0].function.arguments,
  },
  {
    name: 'vendor_a Responses function_call',
    preset: 'vendor_a_responses',
    body: (args, tool = 'send_mail') => ({ output: [{ type: 'message', id: 'm1', content: [{ type: 'output_text', text: 'calling' }] }, { type: 'function_call', id: 'fc1', call_id: 'c1', name: tool, arguments: args }] }),
    args: (b) => (b as { output: [unknown, { arguments: string }] }).output[1].arguments,
  },
  {
    name: 'vendor_b tool_use',
    preset: 'vendor_b_messages',
    body: (args, tool = 'send_mail') => ({ role: 'assistant', content: [{ type: 'text', text: 'calling' }, { type: 'tool_use', id: 'tu1', name: tool, input: JSON.parse(args) as unknown }] }),
    args: (b) => (b as { content: [unknown, { input: unknown }] }).content[1].input,
  },
  {
    name: 'vendor_d functionCall',
    preset: 'vendor_d_gemini',
    body: (args, tool = 'send_mail') => ({ candidates: [{ content: { role: 'model', parts: [{ text: 'calling' }, { functionCall: { name: tool, args: JSON.parse(args) as unknown } }] } }] }),
    args: (b) => (b as { candidates: [{ content: { parts: [unknown, { functionCall: { args: unknown } }] } }] }).candidates[0].content.parts[1].functionCall.args,
  },
  {
    name: 'vendor_e v2 chat tool_calls',
    preset: 'vendor_e_chat',
    body: (args, tool = 'send_mail') => ({ id: 'r1', finish_reason: 'TOOL_CALL', message: { role: 'assistant', content: [{ type: 'text', text: 'calling' }], tool_calls: [{ id: 'c1', type: 'function', function: { name: tool, arguments: args } }] } }),
    args: (b) => (b as { message: { tool_calls: [{ function: { arguments: string } }] } }).message.tool_calls[0].function.arguments,
  },
  {
    name: 'vendor_g chat tool_calls',
    preset: 'vendor_g_chat',
    body: (args, tool = 'send_mail') => ({ model: 'm', message: { role: 'assistant', content: 'calling', tool_calls: [{ function: { name: tool, arguments: JSON.parse(args) as unknown } }] }, done: true }),
    args: (b) => (b as { message: { tool_calls: [{ function: { arguments: unknown } }] } }).message.tool_calls[0].function.arguments,
  },
  {
    name: 'vendor_j toolCallList',
    preset: 'vendor_j_gpt',
    body: (args, tool = 'send_mail') => ({
      result: {
        alternatives: [{ message: { role: 'assistant', text: 'calling', toolCallList: { toolCalls: [{ functionCall: { name: tool, arguments: JSON.parse(args) as unknown } }] } }, status: 'ALTERNATIVE_STATUS_TOOL_CALLS' }],
      },
    }),
    args: (b) => (b as { result: { alternatives: [{ message: { toolCallList: { toolCalls: [{ functionCall: { arguments: unknown } }] } } }] } }).result.alternatives[0].message.toolCallList.toolCalls[0].functionCall.arguments,
  },
];

for (const format of FORMATS) {
  t.test(`${format.name}: masked inside the arguments, blocked in block mode, recorded`, async (t) => {
    emitted.length = 0;
    const scanned = await scan(format.preset, format.body(ARGS_TEXT), mask);
    t.ok(scanned);
    const body = JSON.parse(scanned!.body.toString()) as unknown;
    const args = format.args(body);
    t.same(typeof args === 'string' ? JSON.parse(args) : args, MASKED, 'masked inside the strings, the same JSON shape');
    t.notMatch(scanned!.body.toString(), /john\.smith|anna/, 'no value left, escaped or not');
    t.equal(scanned!.result.effective, 'REDACT');
    t.same(emitted.map((e) => e.event_type), ['RESPONSE_REDACTED'], 'recorded like a finding in the text');
    t.same(emitted[0]!.pii_entities.map((e) => e.type).sort(), ['EMAIL', 'EMAIL']);

    const blocked = await scan(format.preset, format.body(ARGS_TEXT), { pii_mode: 'block', pii_types: ['EMAIL'] }).then(
      () => undefined,
      (error: unknown) => error,
    );
    t.ok(isPalisadeError(blocked) && blocked.code === 'RESPONSE_BLOCKED', 'block mode blocks the answer');

    const clean = await scan(format.preset, format.body(JSON.stringify({ subject: 'hello' })), mask);
    t.equal(clean!.result.effective, 'PASS', 'clean arguments pass');
  });
}

// A tool's name is text the model wrote (so an attacker's) and reaches the client: read like the answer.
const NAMED = 'notify_john.smith@example.org';
for (const format of FORMATS) {
  t.test(`${format.name}: the tool's name is scanned as text, masked, blocked in block mode`, async (t) => {
    const scanned = await scan(format.preset, format.body(JSON.stringify({ subject: 'hello' }), NAMED), mask);
    t.equal(scanned!.result.effective, 'REDACT');
    t.notMatch(scanned!.body.toString(), /john\.smith/, 'the name masked');
    t.match(scanned!.body.toString(), /"n\*\*\*@example\.org"/, 'in place, as a string');
    const blocked = await scan(format.preset, format.body(JSON.stringify({ subject: 'hello' }), NAMED), { pii_mode: 'block', pii_types: ['EMAIL'] }).then(
      () => undefined,
      (error: unknown) => error,
    );
    t.ok(isPalisadeError(blocked) && blocked.code === 'RESPONSE_BLOCKED', 'block mode blocks the answer');
  });
}

t.test('a value outside a JSON string (a card number as a number) cannot be masked in place: the answer is blocked', async (t) => {
  const body = { choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'pay', arguments: '{"card": 4111111111111111}' } }] } }] };
  const error = await scan('vendor_a_chat_completions', body, mask).then(
    () => undefined,
    (e: unknown) => e,
  );
  t.ok(isPalisadeError(error) && error.code === 'RESPONSE_BLOCKED');
});

t.test('arguments that are not JSON are read and masked as plain text', async (t) => {
  const body = { choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'x', arguments: 'to john.smith@example.org {' } }] } }] };
  const scanned = await scan('vendor_a_chat_completions', body, mask);
  t.equal(JSON.parse(scanned!.body.toString()).choices[0].message.tool_calls[0].function.arguments, 'to j***@example.org {');
});

t.test('arguments given as an object where a JSON text is expected are read and kept an object', async (t) => {
  const body = { choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'x', arguments: { to: 'john.smith@example.org' } } }] } }] };
  const scanned = await scan('vendor_a_chat_completions', body, mask);
  t.same(JSON.parse(scanned!.body.toString()).choices[0].message.tool_calls[0].function.arguments, { to: 'j***@example.org' });
});

t.test('a custom-only mapping keeps reading the answer text alone', async (t) => {
  const mapping = compileProviderMapping({ mapping_custom: { prompt_path: '$.prompt', response_path: '$.response' } });
  t.same(mapping.extractToolArguments({ response: 'x', tool_calls: [{ function: { arguments: '{}' } }] }), []);
  t.same(compileProviderMapping({ mapping_preset: 'vendor_a_chat_completions', mapping_custom: { response_path: '$.text' } }).mapping.tool_arguments?.length, 4, "a preset's tool paths (arguments and names) stay under custom paths");
});
