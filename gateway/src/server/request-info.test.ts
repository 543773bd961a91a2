import t from 'tap';
import { originalUriOf, sourceIpOf, tenantOf } from './request-info.js';

t.test('tenant: X-Tenant-ID or default', async (t) => {
  t.equal(tenantOf({}), 'default');
  t.equal(tenantOf({ 'x-tenant-id': '' }), 'default');
  t.equal(tenantOf({ 'x-tenant-id': ' acme ' }), 'acme');
});

t.test('original URI: X-Original-URI or the request path with its query', async (t) => {
  t.equal(originalUriOf({ 'x-original-uri': '/openai/v1/chat?x=1' }, '/chat'), '/openai/v1/chat?x=1');
  t.equal(originalUriOf({}, '/v1/chat/completions?api-version=2'), '/v1/chat/completions?api-version=2');
});

t.test('source ip: X-Real-IP, then the first X-Forwarded-For hop, then the socket', async (t) => {
  t.equal(sourceIpOf({ 'x-real-ip': '10.0.0.9', 'x-forwarded-for': '1.1.1.1' }, '127.0.0.1'), '10.0.0.9');
  t.equal(sourceIpOf({ 'x-forwarded-for': ' 203.0.113.7 , 10.0.0.1' }, '127.0.0.1'), '203.0.113.7');
  t.equal(sourceIpOf({}, '::1'), '::1');
  t.equal(sourceIpOf({}, undefined), null);
});
