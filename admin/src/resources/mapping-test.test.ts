// The mapping tester over real HTTP on the Admin API: the preset's sample by default, custom paths over
// the preset's, the caller's own bodies, and the 400s of a mapping the gateway could not use.
import t from 'tap';
import { MAPPING_SAMPLES } from '@palisade/core';
import { forOneDatabase } from '@palisade/core/testing';
import { startAdminApi, type Caller } from '../testing/admin-api.js';
import { registerMappingTestRoute } from './mapping-test.js';

const VIEWER: Caller = { user: 'vera', groups: 'viewer', tenant: 'acme' };
const PATH = '/api/v1/providers/mapping-test';
const byField = (body: { results: Array<{ field: string }> }) => Object.fromEntries(body.results.map((r) => [r.field, r]));

// Stateless: the route touches no storage, so one database is enough.
t.test('the mapping tester', async (t) => {
  await forOneDatabase(t, async (t, db) => {
    const { call } = await startAdminApi(t, db, { routeModules: [registerMappingTestRoute] });

    t.test("a preset on its own sample: what each of the five paths extracts (a viewer may test)", async (t) => {
      const res = await call('POST', PATH, { as: VIEWER, body: { mapping_preset: 'vendor_b_messages' } });
      t.equal(res.status, 200, res.text);
      t.same(res.body.body, MAPPING_SAMPLES.vendor_b_messages.request, 'the sample request is returned');
      t.same(res.body.response_body, MAPPING_SAMPLES.vendor_b_messages.response);
      const r = byField(res.body);
      t.match(r.prompt_path, { path: '$.messages[*].content', value: /Summarise the attached invoice/, error: null });
      t.match(r.system_prompt_path, { path: '$.system', value: /careful assistant/ });
      t.match(r.user_messages_path, { value: [/Summarise/] });
      t.match(r.model_path, { path: '$.model', value: 'model-b-large' });
      t.match(r.response_path, { path: '$.content[0].text', value: /1,440 EUR/ });
    });

    t.test('custom paths override the preset’s, on the caller’s bodies', async (t) => {
      const body = { model: 'm', input: { question: 'What is the capital of Peru?' }, messages: [] };
      const res = await call('POST', PATH, {
        as: VIEWER,
        body: { mapping_preset: 'vendor_a_chat_completions', mapping_custom: { prompt_path: 'input.question' }, body, response_body: { choices: [] } },
      });
      const r = byField(res.body);
      t.match(r.prompt_path, { path: '$.input.question', value: 'What is the capital of Peru?' }, 'short form made full');
      t.match(r.model_path, { value: 'm' });
      t.match(r.system_prompt_path, { value: '' }, 'no match is an empty text');
      t.match(r.response_path, { value: '' });
    });

    t.test('a custom mapping without a preset: paths it lacks are null', async (t) => {
      const res = await call('POST', PATH, { as: VIEWER, body: { mapping_custom: { prompt_path: '$.prompt' } } });
      const r = byField(res.body);
      t.match(r.prompt_path, { value: /Summarise/ }, "custom_simple's sample");
      t.same(r.model_path, { field: 'model_path', path: null, value: null, error: null });
    });

    t.test('mappings the gateway could not use are 400s naming the field', async (t) => {
      const noPrompt = await call('POST', PATH, { as: VIEWER, body: { mapping_custom: { model_path: '$.model' } } });
      t.equal(noPrompt.status, 400);
      t.match(noPrompt.body.error, { code: 'VALIDATION_ERROR', details: [{ path: 'mapping_custom.prompt_path' }] });
      const nothing = await call('POST', PATH, { as: VIEWER, body: {} });
      t.match(nothing.body.error, { code: 'VALIDATION_ERROR', details: [{ path: 'mapping_preset' }] });
      const badPath = await call('POST', PATH, { as: VIEWER, body: { mapping_preset: 'custom_simple', mapping_custom: { model_path: '(model' } } });
      t.match(badPath.body.error, { code: 'VALIDATION_ERROR', details: [{ path: 'mapping_custom.model_path' }] });
      const unknown = await call('POST', PATH, { as: VIEWER, body: { mapping_preset: 'vendor_x' } });
      t.match(unknown.body.error, { code: 'VALIDATION_ERROR', details: [{ path: 'mapping_preset' }] });
      const huge = await call('POST', PATH, { as: VIEWER, body: { mapping_preset: 'custom_simple', body: { prompt: 'a'.repeat(1024 * 1024) } } });
      t.equal(huge.status, 413);
      t.equal((await call('POST', PATH, { as: null, body: { mapping_preset: 'custom_simple' } })).status, 401);
    });
  });
});
