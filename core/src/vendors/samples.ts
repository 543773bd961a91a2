// The sample requests of the vendors' APIs: what the presets must read and the mock must answer.
/** The prompt of every API's sample request. */
export const SAMPLE_PROMPT = 'sample-prompt';
const chatSample = { model: 'm', messages: [{ role: 'user', content: SAMPLE_PROMPT }] };
/** The samples of the role/content chat and the legacy completions format, shared by their copies. */
export const SAMPLE_BODIES = { chat: chatSample, completion: { model: 'm', prompt: SAMPLE_PROMPT } } as const;

/**
 * The texts of the presets' sample exchanges (a request and its answer per mapping preset): realistic
 * enough for a person trying the console's mapping tester.
 */
export const EXCHANGE = {
  system: 'You are a careful assistant for the finance team.',
  prompt: 'Summarise the attached invoice in two sentences.',
  answer: 'The invoice is for 12 licences, 1,440 EUR in all, due on 1 March.',
  imagePrompt: 'A lighthouse on a cliff at dawn, watercolour.',
  imageUrl: 'https://images.example.com/lighthouse.png',
} as const;

/** A role/content chat request of the exchange, for the chat formats that share it. */
export const chatExchangeRequest = (model: string) => ({
  model,
  messages: [
    { role: 'system', content: EXCHANGE.system },
    { role: 'user', content: EXCHANGE.prompt },
  ],
});
export const CHAT_EXCHANGE_RESPONSE = { choices: [{ index: 0, message: { role: 'assistant', content: EXCHANGE.answer }, finish_reason: 'stop' }] };
