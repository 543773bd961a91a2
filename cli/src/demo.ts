// `npm start` shows the product at once: on a first start (no provider in tenant `default`) demo
// providers route the OpenAI, Anthropic and Gemini paths to the bundled mock LLM, each in its own
// vendor format and inspected by a demo profile, so an allowed call, a blocked jailbreak and a masked
// e-mail can be seen in a minute with any of the three SDKs. PALISADE_DEMO=false turns it off.
import type { RegistryComponent } from '@palisade/admin';
import type { MappingPresetName, ProviderTypeName } from '@palisade/core';

export const DEMO_PROVIDER_NAME = 'demo-mock-llm';
export const DEMO_PROFILE_NAME = 'demo-profile';

interface DemoRoute {
  name: string;
  provider_type: ProviderTypeName;
  match_value: string;
  priority: number;
  target_path: string;
  mapping_preset: MappingPresetName;
  description: string;
}

/** The model the Gemini routes name upstream: the URL's model is not carried over (target_path is fixed). */
const GEMINI_MODEL = 'gemini-2.0-flash';

export const DEMO_ROUTES: readonly DemoRoute[] = [
  {
    name: DEMO_PROVIDER_NAME,
    provider_type: 'vendor_a',
    // The catch-all, lowest priority: any provider added later wins over it.
    match_value: '/**',
    priority: 1,
    target_path: '/v1/chat/completions',
    mapping_preset: 'vendor_a_chat_completions',
    description: 'Demo provider created on first start: every other path of tenant default goes to the mock LLM (OpenAI chat format)',
  },
  {
    name: 'demo-mock-anthropic',
    provider_type: 'vendor_b',
    match_value: '/v1/messages',
    priority: 2,
    target_path: '/v1/messages',
    mapping_preset: 'vendor_b_messages',
    description: 'Demo provider created on first start: the Anthropic Messages API on the mock LLM',
  },
  {
    name: 'demo-mock-gemini',
    provider_type: 'vendor_d',
    match_value: '^/v1beta/models/[^/:]+:generateContent',
    priority: 2,
    target_path: `/v1beta/models/${GEMINI_MODEL}:generateContent`,
    mapping_preset: 'vendor_d_gemini',
    description: 'Demo provider created on first start: Gemini generateContent on the mock LLM',
  },
  {
    name: 'demo-mock-gemini-stream',
    provider_type: 'vendor_d',
    match_value: '^/v1beta/models/[^/:]+:streamGenerateContent',
    priority: 2,
    // The SDKs stream with ?alt=sse; the upstream URL carries no query of the client's.
    target_path: `/v1beta/models/${GEMINI_MODEL}:streamGenerateContent?alt=sse`,
    mapping_preset: 'vendor_d_gemini',
    description: 'Demo provider created on first start: Gemini streamGenerateContent (SSE) on the mock LLM',
  },
];

/** Creates and activates the demo providers and their profiles; false when tenant default has providers. */
export async function seedDemo(registry: RegistryComponent, mockUrl: string): Promise<boolean> {
  const existing = await registry.providers.list('default', { limit: 1 });
  if (existing.total > 0) return false;
  for (const route of DEMO_ROUTES) {
    const provider = await registry.providers.create({ ...route, match_type: 'url', target_base_url: mockUrl }, 'default');
    await registry.providers.activate(provider.id, 'default');
    // Inspected with the profile defaults: jailbreaks blocked at 0.8, e-mails and phone numbers masked.
    const profileName = route.name === DEMO_PROVIDER_NAME ? DEMO_PROFILE_NAME : route.name.replace('demo-mock-', 'demo-profile-');
    const profile = await registry.profiles.create({ name: profileName, provider_id: provider.id }, 'default');
    await registry.profiles.activate(profile.id, 'default');
  }
  return true;
}
