// The rules' prefix automata are built when a bundle loads (prewarm), so the first stream of a
// profile after a change finds its automaton ready; unchanged rules are not built again.
import t from 'tap';
import { randomUUID } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { ContentPolicy, Profile } from '@palisade/core';
import { createContentPolicyEvaluator, createPiiDetector } from '@palisade/detectors';
import { createInProcessDecisionPoint } from '../decision/index.js';
import { compileRulePrefixes } from './rule-prefixes.js';
import { createStreamScanning, type LoadedBundle, type StreamCall } from './stream-scanning.js';

const now = new Date().toISOString();
const policyOf = (pattern: string) =>
  ContentPolicy.parse({ id: randomUUID(), tenant_id: 'default', name: `p-${pattern}`, type: 'blocklist', scope: 'response', rules: [{ kind: 'regex', pattern }], action: 'block', status: 'ACTIVE', created_at: now, updated_at: now });
const profileOf = (policies: readonly ContentPolicy[], response_scanning: Record<string, unknown> = {}) =>
  Profile.parse({ id: randomUUID(), tenant_id: 'default', name: 'p', provider_id: randomUUID(), status: 'ACTIVE', created_at: now, updated_at: now, content_policy_ids: policies.map((p) => p.id), response_scanning: { enabled: true, pii_mode: 'disabled', ...response_scanning } });
const bundleOf = (profiles: readonly Profile[], policies: readonly ContentPolicy[]): LoadedBundle & StreamCall['snapshot'] => ({ revision: randomUUID(), profiles, contentPolicy: (id) => policies.find((p) => p.id === id) });

const detectors = { pii: createPiiDetector(), contentPolicy: createContentPolicyEvaluator(), decisionPoint: createInProcessDecisionPoint() };
/** The scanning with an in-thread compiler that counts its builds. */
function scanningCountingBuilds() {
  const built: string[][] = [];
  const scanning = createStreamScanning(detectors, {
    compileRulePrefixes: async (policies) => {
      built.push(policies.flatMap((p) => p.rules.map((r) => r.pattern)));
      return compileRulePrefixes(policies);
    },
  });
  return { scanning, built };
}
// plan() reads the call's reply only once the upstream's stream starts, which these tests never do.
const reply = {} as FastifyReply;
const callOf = (profile: Profile, snapshot: StreamCall['snapshot']): StreamCall => ({
  profile,
  snapshot,
  upstreamUrl: 'http://127.0.0.1:1/v1/chat/completions',
  json: { stream: true },
  systemPrompt: '',
  traceId: 't',
  tenantId: 'default',
  context: {},
  reply,
});

t.test('without a prewarm the first stream builds the automaton and starts on the fixed lengths', async (t) => {
  const { scanning, built } = scanningCountingBuilds();
  const policy = policyOf('codename-\\d{3}');
  const profile = profileOf([policy]);
  const planned = scanning.plan(callOf(profile, bundleOf([profile], [policy])));
  t.equal(planned?.rulesReady, false, 'the first stream did not find it ready');
  await new Promise((resolve) => setImmediate(resolve));
  t.equal(built.length, 1, 'the stream started the build');
});

t.test('a loaded bundle builds its streaming profiles’ automata: the first stream finds its automaton ready', async (t) => {
  const { scanning, built } = scanningCountingBuilds();
  const codename = policyOf('codename-\\d{3}');
  const key = policyOf('sk-[A-Za-z0-9]{8,}');
  const streaming = profileOf([codename]);
  const buffered = profileOf([key], { streaming: 'buffer' });
  const fixed = profileOf([key], { stream_holdback_chars: 64 });
  const bundle = bundleOf([streaming, buffered, fixed], [codename, key]);
  await scanning.prewarm(bundle);
  t.same(built, [['codename-\\d{3}']], 'built for the streaming profile only (not for buffer, nor for a fixed hold-back)');
  t.equal(scanning.plan(callOf(streaming, bundle))?.rulesReady, true, 'the first stream after the load finds it ready');
  t.equal(built.length, 1, 'the stream did not build it again');

  // The next bundle: the same rules in new policy objects (a change elsewhere), and a changed rule.
  const same = { ...codename };
  const changed = policyOf('project-\\d{2}');
  const next = bundleOf([profileOf([same]), profileOf([changed])], [same, changed]);
  await scanning.prewarm(next);
  t.same(built, [['codename-\\d{3}'], ['project-\\d{2}']], 'only the changed rules are built');
  t.ok(next.profiles.every((p) => scanning.plan(callOf(p, next))?.rulesReady === true), 'every profile ready for its first stream');
});
