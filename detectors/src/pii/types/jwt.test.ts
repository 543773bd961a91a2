import t from 'tap';
import { detectPii } from '../detect.js';
import { found } from '../../testing/pii.js';
import { jwtRule } from './jwt.js';

const jwts = (text: string) => found(text, 'JWT');
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const SAMPLE = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';

t.test('three base64url segments with a JSON header naming its algorithm', async (t) => {
  t.same(jwts(`Authorization: Bearer ${SAMPLE}`), [SAMPLE]);
  t.same(jwts(`token=${SAMPLE}.`), [SAMPLE], 'a full stop after the signature');
  t.same(jwts(`{"id_token":"${SAMPLE}"}`), [SAMPLE]);
  const unsigned = `${b64({ alg: 'none' })}.${b64({ sub: '1' })}.`;
  t.same(jwts(`unsigned ${unsigned} here`), [unsigned.slice(0, -1)], 'alg none: claims leak, the empty signature is not part of it');
  const jwe = `${b64({ alg: 'RSA-OAEP', enc: 'A256GCM' })}.${'a'.repeat(40)}.${'b'.repeat(16)}.${'c'.repeat(30)}.${'d'.repeat(22)}`;
  t.same(jwts(jwe), [jwe], 'an encrypted token (five segments)');
});

t.test('a JWT after a secret name is a JWT, not an API key, even cut before its signature', async (t) => {
  const cut = SAMPLE.slice(0, SAMPLE.lastIndexOf('.'));
  for (const text of [`token=${SAMPLE}`, `token=${cut}`, `TOKEN: ${cut}&next=1`, `"access_token": "${cut}"`]) {
    const all = detectPii(text, { direction: 'output' });
    t.same(all.map((e) => e.type), ['JWT'], text.slice(0, 30));
  }
  t.same(detectPii(`token=${cut}`, { direction: 'output' })[0]!.masked, 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.***.***');
});

t.test('base64 that is not a JWT', async (t) => {
  for (const text of [
    b64({ user: 'ivan', role: 'admin' }),
    `${b64({ alg: 'HS256' })}.notbase64json.${'s'.repeat(43)}`,
    `${b64({ typ: 'JWT' })}.${b64({ sub: '1' })}.${'s'.repeat(43)}`,
    `${b64({ alg: 'HS256' })}.${b64([1, 2])}.${'s'.repeat(43)}`,
    'SGVsbG8gV29ybGQ=.SGVsbG8.V29ybGQ',
    `x${SAMPLE}`,
    '1.24.3',
  ]) {
    t.same(jwts(text), [], text.slice(0, 40));
  }
});

t.test('mask: header kept, claims and signature hidden (our choice)', async (t) => {
  t.equal(jwtRule.mask(SAMPLE), 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.***.***');
});
