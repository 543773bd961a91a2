import t from 'tap';
import { z } from 'zod';
import { HostPort, ListQuery, isHost, isHostPort, omitUnchanged, updateShape } from './common.js';
import { ISO_639_1_CODES, isIso6391 } from './languages.js';
import { issuePaths, parseOk } from '../testing/model.js';

t.test('updateShape: no defaults, nested objects partial, unions whole', async (t) => {
  const Spec = z.object({
    n: z.number().min(1).default(5),
    nested: z.object({ a: z.boolean().default(true), b: z.string().default('x') }).prefault({}),
    maybe: z.string().nullable().optional(),
    union: z.discriminatedUnion('k', [z.object({ k: z.literal('a'), v: z.string().default('d') })]).optional(),
  });
  const Update = z.object(updateShape(Spec.shape));
  t.same(parseOk(Update, {}), {});
  t.same(parseOk(Update, { nested: { b: 'y' } }), { nested: { b: 'y' } });
  t.same(parseOk(Update, { maybe: null }), { maybe: null });
  t.same(parseOk(Update, { union: { k: 'a' } }), { union: { k: 'a', v: 'd' } }, 'a union is replaced whole, with its defaults');
  t.same(issuePaths(Update, { n: 0 }), ['n']);
  t.same(issuePaths(Update, { nested: { a: 'no' } }), ['nested.a']);
});

t.test('omitUnchanged drops immutable fields resent with their stored value', async (t) => {
  const stored = { provider_type: 'vendor_a', match_type: 'url', name: 'p' };
  t.same(omitUnchanged({ provider_type: 'vendor_a', name: 'q' }, stored, ['provider_type', 'match_type']), { name: 'q' });
  t.same(omitUnchanged({ provider_type: 'vendor_b' }, stored, ['provider_type']), { provider_type: 'vendor_b' });
});

t.test('host and host:port', async (t) => {
  for (const h of ['siem.local', 'a.b.example.com', '10.0.0.1', '::1', '[::1]']) t.ok(isHost(h), h);
  for (const h of ['bad host', 'a/b', '']) t.notOk(isHost(h), h);
  for (const hp of ['kafka:9092', '10.0.0.1:514', '[2001:db8::1]:6514', 'a:1', 'a:65535']) t.ok(isHostPort(hp), hp);
  for (const hp of ['kafka', 'kafka:0', 'kafka:65536', ':9092', 'kafka:port', '2001:db8::1:514']) t.notOk(isHostPort(hp), hp);
  t.same(issuePaths(HostPort, 'nope'), ['']);
});

t.test('list paging: limit 1-1000 default 50, offset default 0', async (t) => {
  t.same(parseOk(ListQuery, {}), { limit: 50, offset: 0 });
  t.same(parseOk(ListQuery, { limit: '1', offset: '5' }), { limit: 1, offset: 5 });
  t.same(parseOk(ListQuery, { limit: 1000 }), { limit: 1000, offset: 0 });
  t.same(issuePaths(ListQuery, { limit: 0 }), ['limit']);
  t.same(issuePaths(ListQuery, { limit: 1001 }), ['limit']);
  t.same(issuePaths(ListQuery, { offset: -1 }), ['offset']);
});

t.test('ISO 639-1 codes', async (t) => {
  t.equal(ISO_639_1_CODES.length, 184);
  for (const c of ['en', 'ru', 'de', 'zh', 'kk']) t.ok(isIso6391(c), c);
  for (const c of ['xx', 'zz', 'EN', 'eng']) t.notOk(isIso6391(c), c);
});
