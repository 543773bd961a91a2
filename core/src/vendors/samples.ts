// The texts of the presets' sample exchanges, shared by the vendor folders.
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
