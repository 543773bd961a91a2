// What the bench sends: the plain and the full-inspection chat requests, the content policies of the
// inspection profile, and a single checked call.
import type { LoadSpec } from './scenario.js';
import type { Options } from './options.js';

export const TENANT = 'default';
export const CHAT_PATH = '/v1/chat/completions';

/** A ~1 KB vendor_a chat request: a short system message and ~900 characters of user text. */
function chatRequest(): string {
  const sentence = 'The quarterly report covers revenue, churn and support volume across all regions. ';
  let text = '';
  while (text.length < 900) text += sentence;
  return JSON.stringify({
    model: 'gpt-4o-mini',
    messages: [
      { role: 'system', content: 'You are a concise assistant. Answer in one paragraph.' },
      { role: 'user', content: `Summarise the following notes. ${text.slice(0, 870).trim()}` },
    ],
  });
}

/**
 * The full-inspection request: ~2 KB of user text of a support conversation with an e-mail address (so
 * SANITIZE rewrites it) and words near the policies' keywords; the mock echoes it as a 2 KB answer.
 */
function inspectedRequest(): string {
  const sentences = [
    'Our customer in Berlin reported that the invoice export fails when the report covers more than one quarter. ',
    'They attached the logs and asked us to reply to anna.schmidt@example.com with a workaround. ',
    'The account manager wants a summary of the open tickets, the expected fix date and the impact on billing. ',
    'Please keep the tone friendly and list the steps the customer can take today. ',
  ];
  let text = '';
  for (let i = 0; text.length < 2000; i++) text += sentences[i % sentences.length];
  return JSON.stringify({
    model: 'gpt-4o-mini',
    messages: [
      { role: 'system', content: 'You are a support assistant. Answer in one paragraph.' },
      { role: 'user', content: text.slice(0, 2000).trim() },
    ],
  });
}

/**
 * 20 keyword and 20 regex rules that a support conversation does not trigger (nothing blocks).
 * `regexScope`: the streaming scenario also runs with the regex rules on requests only (see runStreamingBench).
 */
export function benchPolicies(regexScope: 'both' | 'request' = 'both'): Array<Record<string, unknown>> {
  const keywords = Array.from({ length: 20 }, (_, i) => ({ kind: 'keyword', pattern: `forbidden-project-${i}` }));
  const regexes = Array.from({ length: 20 }, (_, i) => ({ kind: 'regex', pattern: `(?i)\\bcodename[-_ ]?${i}\\d{2}\\b` }));
  return [
    { name: 'bench-keywords', type: 'blocklist', rules: keywords, scope: 'both', action: 'block' },
    { name: 'bench-regexes', type: 'blocklist', rules: regexes, scope: regexScope, action: 'block' },
  ];
}

export const BODY = chatRequest();
export const INSPECTED_BODY = inspectedRequest();
export const HEADERS = { 'content-type': 'application/json', authorization: 'Bearer sk-bench-not-a-real-key', 'x-tenant-id': TENANT };

export function spec(url: string, options: Options, body = BODY): LoadSpec {
  return { url, method: 'POST', path: CHAT_PATH, headers: HEADERS, body, connections: options.connections, durationSec: options.durationSec, warmupSec: options.warmupSec };
}

/** One chat request; resolves to true on 200 (and, when `decision` is given, that X-Service-Decision), else a short reason. */
export async function tryChat(baseUrl: string, body = BODY, decision?: string): Promise<true | string> {
  const res = await fetch(`${baseUrl}${CHAT_PATH}`, { method: 'POST', headers: HEADERS, body, signal: AbortSignal.timeout(5000) });
  const text = await res.text();
  if (res.status !== 200) return `status ${res.status}: ${text.slice(0, 300)}`;
  const got = res.headers.get('x-service-decision');
  return decision === undefined || got === decision ? true : `X-Service-Decision ${got ?? 'absent'}, expected ${decision}`;
}

