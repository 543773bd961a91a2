// Test helpers: a listening mock torn down with the test, and small fetch wrappers.
import type { Test } from 'tap';
import { createMockLlm } from '../server.js';
import type { MockLlm, MockLlmOptions } from '../types.js';

export async function startMock(t: Test, options?: MockLlmOptions): Promise<{ mock: MockLlm; url: string }> {
  const mock = createMockLlm(options);
  const url = await mock.listen(0);
  t.teardown(() => mock.close());
  return { mock, url };
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: any; // test assertions walk arbitrary vendor shapes
}

export async function call(url: string, init: { method?: string; body?: unknown; headers?: Record<string, string>; signal?: AbortSignal } = {}): Promise<Answer> {
  const body = init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
  const res = await fetch(url, {
    method: init.method ?? (body === undefined ? 'GET' : 'POST'),
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers },
    body,
    signal: init.signal,
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}
