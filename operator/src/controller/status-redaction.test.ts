import t from 'tap';
import { redactStatus, secretsOfSpec } from './status-redaction.js';

t.test("a status never quotes a secret of the resource's spec", async (t) => {
  const spec = {
    name: 'p',
    upstream_auth: { type: 'oauth2_client_credentials', token_url: 'http://t.test/token', client_id: 'client-1', client_secret: 'cs-0123456789' },
  };
  const secrets = secretsOfSpec('Provider', spec);
  t.same(secrets, ['cs-0123456789'], 'only the marked field, not the client id');
  const status = {
    conditions: [{ type: 'Ready', message: 'token endpoint said: invalid client_secret cs-0123456789' }],
    health: { status: 'UNHEALTHY', message: 'cs-0123456789 rejected', latencyMs: 3 },
    recordId: 'r',
  };
  t.same(redactStatus(status, secrets), {
    conditions: [{ type: 'Ready', message: 'token endpoint said: invalid client_secret ***' }],
    health: { status: 'UNHEALTHY', message: '*** rejected', latencyMs: 3 },
    recordId: 'r',
  });
  const exporter = { type: 'webhook', config: { url: 'http://h.test', headers: { Authorization: 'Bearer abcdef', 'X-Team': 'blue' } } };
  t.same(secretsOfSpec('EventExporter', exporter), ['Bearer abcdef', 'blue'], 'every webhook header value, longest first');
  t.equal(redactStatus('nothing', []), 'nothing');
});
