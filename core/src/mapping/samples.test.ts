import t from 'tap';
import { compileProviderMapping } from './extractor.js';
import { MAPPING_PRESETS, MAPPING_PRESET_NAMES } from './presets.js';
import { MAPPING_SAMPLES } from './samples.js';

t.test('every preset reads each of its paths from its own sample exchange', async (t) => {
  t.same(Object.keys(MAPPING_SAMPLES).sort(), [...MAPPING_PRESET_NAMES].sort(), 'one sample per preset');
  for (const name of MAPPING_PRESET_NAMES) {
    const paths = MAPPING_PRESETS[name];
    const mapping = compileProviderMapping({ mapping_preset: name });
    const request = mapping.extractRequest(MAPPING_SAMPLES[name].request);
    t.not(request.prompt.trim(), '', `${name}: prompt`);
    if (paths.system_prompt_path) t.not(request.system_prompt, '', `${name}: system prompt`);
    if (paths.user_messages_path) t.equal(request.user_messages.length, 1, `${name}: one user message`);
    if (paths.model_path) t.ok(request.model, `${name}: model`);
    t.not(mapping.extractResponse(MAPPING_SAMPLES[name].response).text, '', `${name}: answer text`);
  }
});
