// `palisade all` wiring, in this process: a registry write is answered once the gateway of the same
// process routes by it, so a script that activates a provider and sends a request at once is routed.
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { request } from 'undici';
import { findComponent } from './components.js';
import type { RunningComponent } from './components/definition.js';
import { createContext } from './context.js';

async function call(url: string, method: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await request(url, {
    method: method as 'POST',
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, json: text ? JSON.parse(text) : undefined, text };
}

t.test('activate, then at once a request: routed, 20 times in a row', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'palisade-same-process-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const ctx = createContext(
    // No threat model: the providers here have no profile, and a model load is slow on a small machine.
    { PALISADE_DATA_DIR: dataDir, PALISADE_DEMO: 'false', THREAT_DETECTOR_URL: 'http://127.0.0.1:9', HEALTH_CHECK_ENABLED: 'false' },
    pino({ level: 'silent' }),
    ['mock-llm', 'registry', 'bundle-store', 'gateway'],
  );
  const running: RunningComponent[] = [];
  t.teardown(async () => {
    for (const component of running.splice(0).reverse()) await component.close();
    await ctx.close();
  });
  for (const name of ['mock-llm', 'registry', 'bundle-store', 'gateway']) {
    const started = await findComponent(name)!.start(ctx, 0, '127.0.0.1');
    running.push(started);
    ctx.urls[name] = started.url;
  }
  const { registry, gateway } = ctx.urls as Record<string, string>;

  for (let i = 0; i < 20; i++) {
    const path = `/now-${i}/v1/chat/completions`;
    const created = await call(`${registry}/api/v1/providers`, 'POST', {
      name: `now-${i}`,
      provider_type: 'vendor_a',
      match_type: 'url',
      match_value: path,
      target_base_url: ctx.urls['mock-llm'],
      mapping_preset: 'vendor_a_chat_completions',
    });
    t.equal(created.status, 201, created.text);
    const activated = await call(`${registry}/api/v1/providers/${created.json.id}/activate`, 'POST');
    t.equal(activated.status, 200);
    const revision = activated.headers['x-bundle-revision'];
    t.match(revision, /^[0-9a-f]{64}$/, 'the answer names the revision it produced');
    const routed = await call(`${gateway}${path}`, 'POST', { model: 'm', messages: [{ role: 'user', content: `hi ${i}` }] });
    t.equal(routed.status, 200, `request ${i} right after the activate answer is routed`);
    t.equal(routed.headers['x-provider-id'], created.json.id);
    const ready = await call(`${gateway}/health/ready`, 'GET');
    t.equal(ready.json.bundle_revision, revision, 'the gateway reports the revision it serves');
  }
  const bundle = await request(`${ctx.urls['bundle-store']}/policies/policies/default/bundle.tar.gz`);
  await bundle.body.dump();
  t.equal(bundle.statusCode, 401, 'without INTERNAL_SERVICE_TOKEN the bundle store and the gateway of one process share a random token');
});
