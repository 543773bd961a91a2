import t from 'tap';
import { Profile } from './profile.js';
import { profileWarnings } from './profile-warnings.js';

const profile = (settings: Record<string, unknown>) =>
  Profile.parse({ id: '00000000-0000-4000-8000-000000000001', tenant_id: 'default', name: 'p', provider_id: '00000000-0000-4000-8000-000000000002', created_at: new Date().toISOString(), updated_at: new Date().toISOString(), ...settings });

t.test('the defaults warn about nothing', async (t) => {
  t.same(profileWarnings(profile({})), []);
});

t.test('content safety on answers with incremental streaming: streamed answers are buffered', async (t) => {
  for (const settings of [{ response_scanning: { content_safety_enabled: true } }, { content_safety: { response_enabled: true } }]) {
    const [warning, ...rest] = profileWarnings(profile(settings));
    t.match(warning, /streamed answers are buffered/);
    t.same(rest, []);
  }
  t.same(profileWarnings(profile({ response_scanning: { content_safety_enabled: true, streaming: 'buffer' } })), [], 'buffer asked for: nothing to say');
});

t.test('response checks switched on under a switched-off response scan', async (t) => {
  const warnings = profileWarnings(profile({ response_scanning: { enabled: false, pii_mode: 'block' }, content_safety: { response_enabled: true } }));
  t.equal(warnings.length, 2);
  t.match(warnings[0], /answers are not checked/);
  t.match(warnings[1], /pii_mode is block.*not scanned for PII/);
  t.same(profileWarnings(profile({ response_scanning: { enabled: false } })), [], 'off with nothing asked of it');
});

t.test('a hold-back size with buffered streams has no effect', async (t) => {
  t.match(profileWarnings(profile({ response_scanning: { streaming: 'buffer', stream_holdback_chars: 512 } })), [/stream_holdback_chars has no effect/]);
  t.same(profileWarnings(profile({ response_scanning: { stream_holdback_chars: 512 } })), []);
});
