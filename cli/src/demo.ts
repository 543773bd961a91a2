// `npm start` shows a working call at once: on a first start (no provider in tenant `default`) a demo
// provider routes every path to the bundled mock LLM. PALISADE_DEMO=false turns it off.
import type { RegistryComponent } from '@palisade/admin';

export const DEMO_PROVIDER_NAME = 'demo-mock-llm';

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
  return true;
}
