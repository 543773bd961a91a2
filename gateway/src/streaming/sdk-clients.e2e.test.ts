// The vendors' own SDKs as stream clients through the gateway to the mock LLM: each reads the masked
// deltas as ordinary text, and a mid-stream block surfaces as that SDK's own error (not a hang, not a
// parse failure), with none of the violating text delivered before it.
import t from 'tap';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { openOneDatabase } from '../testing/one-database.js';
import { startStack, type Stack } from '../testing/stack.js';

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');
const REPLY = `${words(20)} write to john.smith@example.org soon`;
const MASKED = REPLY.replace('john.smith@example.org', 'j***@example.org');

/** Runs `read` to the end of the stream; returns what it collected and the error that ended it, if any. */
async function consume(read: (collect: (text: string) => void) => Promise<void>): Promise<{ text: string; error: unknown }> {
  let text = '';
  try {
    await read((piece) => (text += piece));
    return { text, error: undefined };
  } catch (error) {
    return { text, error };
  }
}

t.test('vendor SDKs as stream clients', async (t) => {
  let stack: Stack | undefined;
  const db = await openOneDatabase(t, async () => stack?.close());
  stack = await startStack({ db });
  const s = stack;
  const route = (piiMode: 'mask' | 'block', provider: Record<string, unknown>) =>
    s.profiled({ threat_detection: { enabled: false }, pii: { enabled: false }, response_scanning: { enabled: true, pii_mode: piiMode, pii_types: ['EMAIL'] } }, provider);

  t.test('the Anthropic SDK: masked text deltas, and a block raised as its APIError', async (t) => {
    const messages = { provider_type: 'vendor_b', target_path: '/v1/messages', mapping_preset: 'vendor_b_messages' };
    const client = (path: string) =>
      new Anthropic({ apiKey: 'sk-ant-test', baseURL: s.gatewayUrl, maxRetries: 0, defaultHeaders: { 'x-original-uri': path, 'x-mock-reply': REPLY, 'x-mock-chunk-delay-ms': '2' } });
    const read = (path: string) => (collect: (text: string) => void) =>
      (async () => {
        const stream = await client(path).messages.create({ model: 'claude-x', max_tokens: 500, messages: [{ role: 'user', content: 'hello there' }], stream: true });
        for await (const event of stream) {
          if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') collect(event.delta.text);
        }
      })();

    const masked = await consume(read((await route('mask', messages)).provider.match_value));
    t.equal(masked.error, undefined);
    t.equal(masked.text, MASKED);

    const blocked = await consume(read((await route('block', messages)).provider.match_value));
    t.ok(blocked.error instanceof Anthropic.APIError, 'the SDK raises the error event');
    t.match(String((blocked.error as Error).message), /RESPONSE_BLOCKED|blocked/i);
    t.notMatch(blocked.text, /john/, 'the value never reached the SDK');
    t.match(blocked.text, /^word0 word1/, 'the text before it did');
  });

  t.test('the Google Gen AI SDK: masked parts, and a block raised as an error', async (t) => {
    const gemini = { provider_type: 'vendor_d', target_path: '/v1beta/models/gemini-pro:streamGenerateContent?alt=sse', mapping_preset: 'vendor_d_gemini' };
    const read = (path: string) => (collect: (text: string) => void) =>
      (async () => {
        const ai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: s.gatewayUrl, headers: { 'x-original-uri': path, 'x-mock-reply': REPLY, 'x-mock-chunk-delay-ms': '2' } } });
        for await (const chunk of await ai.models.generateContentStream({ model: 'gemini-pro', contents: 'hello there' })) collect(chunk.text ?? '');
      })();

    const masked = await consume(read((await route('mask', gemini)).provider.match_value));
    t.equal(masked.error, undefined);
    t.equal(masked.text, MASKED);

    const blocked = await consume(read((await route('block', gemini)).provider.match_value));
    t.type(blocked.error, Error, 'the SDK raises the error frame');
    t.match(String((blocked.error as Error).message), /RESPONSE_BLOCKED|blocked/i);
    t.notMatch(blocked.text, /john/, 'the value never reached the SDK');
    t.match(blocked.text, /^word0 word1/, 'the text before it did');
  });
});
