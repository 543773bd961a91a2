// One sample exchange per mapping preset: a request body in the vendor's format and its answer. The
// console's mapping tester starts from these, and samples.test.ts proves every preset reads its
// prompt and answer text from them, so a sample cannot silently stop matching its preset.
import type { MappingPresetName } from './presets.js';

export interface MappingSample {
  request: unknown;
  response: unknown;
}

const SYSTEM = 'You are a careful assistant for the finance team.';
const PROMPT = 'Summarise the attached invoice in two sentences.';
const ANSWER = 'The invoice is for 12 licences, 1,440 EUR in all, due on 1 March.';
const IMAGE_PROMPT = 'A lighthouse on a cliff at dawn, watercolour.';
const IMAGE_URL = 'https://images.example.com/lighthouse.png';

const chatRequest = (model: string) => ({
  model,
  messages: [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: PROMPT },
  ],
});
const chatResponse = { choices: [{ index: 0, message: { role: 'assistant', content: ANSWER }, finish_reason: 'stop' }] };

export const MAPPING_SAMPLES: Readonly<Record<MappingPresetName, MappingSample>> = {
  vendor_a_chat_completions: { request: chatRequest('model-a-mini'), response: chatResponse },
  vendor_b_messages: {
    request: { model: 'model-b-large', max_tokens: 256, system: SYSTEM, messages: [{ role: 'user', content: PROMPT }] },
    response: { role: 'assistant', content: [{ type: 'text', text: ANSWER }] },
  },
  vendor_c_chat: { request: chatRequest('model-c-small'), response: chatResponse },
  vendor_i_chat: { request: chatRequest('model-i-chat'), response: chatResponse },
  vendor_j_gpt: {
    request: { modelUri: 'gpt://catalog/model-j/latest', messages: [{ role: 'system', text: SYSTEM }, { role: 'user', text: PROMPT }] },
    response: { result: { alternatives: [{ message: { role: 'assistant', text: ANSWER }, status: 'FINAL' }] } },
  },
  vendor_a_completions: { request: { model: 'model-a-instruct', prompt: PROMPT }, response: { choices: [{ index: 0, text: ANSWER }] } },
  vendor_a_responses: {
    request: { model: 'model-a-mini', instructions: SYSTEM, input: [{ role: 'user', content: [{ type: 'input_text', text: PROMPT }] }] },
    response: { output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: ANSWER }] }] },
  },
  vendor_b_completions: { request: { model: 'model-b-instant', prompt: `\n\nHuman: ${PROMPT}\n\nAssistant:` }, response: { completion: ANSWER } },
  vendor_d_palm: { request: { model: 'model-d-text', prompt: { text: PROMPT } }, response: { candidates: [{ output: ANSWER }] } },
  vendor_e_generate: { request: { model: 'model-e-command', prompt: PROMPT }, response: { generations: [{ text: ANSWER }] } },
  vendor_f_inference: { request: { model: 'model-f-7b', inputs: PROMPT }, response: [{ generated_text: ANSWER }] },
  custom_simple: { request: { model: 'model-x', prompt: PROMPT }, response: { response: ANSWER } },
  image_vendor_k: { request: { model: 'image-k-2', prompt: IMAGE_PROMPT }, response: { images: [{ url: IMAGE_URL }] } },
  image_vendor_a_compatible: { request: { model: 'image-a-3', prompt: IMAGE_PROMPT, n: 1 }, response: { data: [{ url: IMAGE_URL }] } },
  image_vendor_l: { request: { version: 'image-l-v1', input: { prompt: IMAGE_PROMPT } }, response: { status: 'succeeded', output: [IMAGE_URL] } },
  serving_vendor_m_inference: {
    request: { inputs: [{ name: 'prompt', datatype: 'BYTES', shape: [1], data: [IMAGE_PROMPT] }] },
    response: { outputs: [{ name: 'generated_image', datatype: 'BYTES', shape: [1], data: [IMAGE_URL] }] },
  },
  serving_vendor_m_text_generation: {
    request: { inputs: [{ name: 'prompt', datatype: 'BYTES', shape: [1], data: [PROMPT] }, { name: 'model', datatype: 'BYTES', shape: [1], data: ['model-m-text'] }] },
    response: { outputs: [{ name: 'text', datatype: 'BYTES', shape: [1], data: [ANSWER] }] },
  },
  vendor_d_gemini: {
    request: { systemInstruction: { parts: [{ text: SYSTEM }] }, contents: [{ role: 'user', parts: [{ text: PROMPT }] }] },
    response: { candidates: [{ content: { role: 'model', parts: [{ text: ANSWER }] }, finishReason: 'STOP' }] },
  },
  vendor_e_chat: { request: chatRequest('model-e-chat'), response: { message: { role: 'assistant', content: [{ type: 'text', text: ANSWER }] } } },
  vendor_g_chat: { request: chatRequest('model-g-local'), response: { message: { role: 'assistant', content: ANSWER } } },
  vendor_h_chat: { request: chatRequest('model-h-chat'), response: chatResponse },
};
