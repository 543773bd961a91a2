import t from 'tap';
import { createSecretBox, mapSecretFields, MASKED_SECRET } from './secret-box.js';

t.test('seal and open round-trip; sealed values differ each time', async (t) => {
  const box = createSecretBox('k1');
  const a = box.seal('s3cret');
  const b = box.seal('s3cret');
  t.not(a, b);
  t.ok(box.isSealed(a));
  t.equal(box.open(a), 's3cret');
  t.equal(box.seal(a), a, 'sealing twice is a no-op');
  t.equal(box.open('plain'), 'plain', 'clear values pass through');
});

t.test('a different key cannot open, with a clear message', async (t) => {
  const sealed = createSecretBox('k1').seal('x');
  t.throws(() => createSecretBox('k2').open(sealed), /PALISADE_SECRET_KEY differs/);
});

t.test('mapSecretFields touches only the named fields', async (t) => {
  const out = mapSecretFields({ type: 'bearer', token: 'abc' }, ['token', 'key'], () => MASKED_SECRET);
  t.same(out, { type: 'bearer', token: '***' });
});
