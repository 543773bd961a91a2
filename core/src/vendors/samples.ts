// The sample requests of the vendors' APIs: what the presets must read and the mock must answer.
/** The prompt of every API's sample request. */
export const SAMPLE_PROMPT = 'sample-prompt';
const chatSample = { model: 'm', messages: [{ role: 'user', content: SAMPLE_PROMPT }] };
/** The samples of the role/content chat and the legacy completions format, shared by their copies. */
export const SAMPLE_BODIES = { chat: chatSample, completion: { model: 'm', prompt: SAMPLE_PROMPT } } as const;
