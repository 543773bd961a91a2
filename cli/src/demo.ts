// `npm start` shows the product at once: on a first start (no provider in tenant `default`) a demo
// provider routes every path to the bundled mock LLM, inspected by a demo profile, so an allowed call,
// a blocked jailbreak and a masked e-mail can be seen in a minute. PALISADE_DEMO=false turns it off.
import type { RegistryComponent } from '@palisade/admin';

export const DEMO_PROVIDER_NAME = 'demo-mock-llm';
export const DEMO_PROFILE_NAME = 'demo-profile';

export async function seedDemo(registry: RegistryComponent, mockUrl: string): Promise<boolean> {
  const existing = await registry.providers.list('default', { limit: 1 });
  if (existing.total > 0) return false;
  const provider = await registry.providers.create(
    {
      name: DEMO_PROVIDER_NAME,
      description: 'Demo provider created on first start: every path of tenant default goes to the bundled mock LLM',
      provider_type: 'vendor_a',
      match_type: 'url',
      match_value: '/**',
      // Lowest priority: any provider added later wins over the catch-all.
      priority: 1,
      target_base_url: mockUrl,
      target_path: '/v1/chat/completions',
      mapping_preset: 'vendor_a_chat_completions',
    },
    'default',
  );
  await registry.providers.activate(provider.id, 'default');
  // Inspected with the profile defaults: jailbreaks blocked at 0.8, e-mails and phone numbers masked.
  const profile = await registry.profiles.create({ name: DEMO_PROFILE_NAME, provider_id: provider.id }, 'default');
  await registry.profiles.activate(profile.id, 'default');
  return true;
}
