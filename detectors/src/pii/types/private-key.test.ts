import t from 'tap';
import { found } from '../../testing/pii.js';
import { privateKeyRule } from './private-key.js';

const keys = (text: string) => found(text, 'PRIVATE_KEY');
const body = Array.from({ length: 4 }, (_, i) => `MIIEow${i}BAAKCAQEAx3f9a6b2c8d1e4f7a9b0c5d2e8f1a3b6c4d7e9f01Zq81mLw0Tn4vRb`).join('\n');
const pem = (label: string) => `-----BEGIN ${label}-----\n${body}\n-----END ${label}-----`;

t.test('PEM blocks of private keys', async (t) => {
  for (const label of ['RSA PRIVATE KEY', 'PRIVATE KEY', 'EC PRIVATE KEY', 'OPENSSH PRIVATE KEY', 'ENCRYPTED PRIVATE KEY', 'PGP PRIVATE KEY BLOCK']) {
    t.same(keys(`Here it is:\n${pem(label)}\nKeep it safe.`), [pem(label)], label);
  }
  const escaped = pem('RSA PRIVATE KEY').replace(/\n/g, '\\n');
  t.same(keys(`{"key": "${escaped}"}`), [escaped], 'JSON-escaped line breaks');
  const cut = `-----BEGIN RSA PRIVATE KEY-----\n${body}`;
  t.same(keys(`${cut}\n\nThe rest was cut.`), [cut], 'an answer that stops mid-key');
  t.same(keys(`${pem('RSA PRIVATE KEY')}\n${pem('EC PRIVATE KEY')}`), [pem('RSA PRIVATE KEY'), pem('EC PRIVATE KEY')], 'two blocks');
});

t.test('public material and bare headers are not private keys', async (t) => {
  t.same(keys(pem('PUBLIC KEY')), []);
  t.same(keys(pem('CERTIFICATE')), []);
  t.same(keys('The file starts with -----BEGIN RSA PRIVATE KEY----- and then base64.'), [], 'no body');
});

t.test('mask: BEGIN and END lines kept, body hidden (our choice)', async (t) => {
  t.equal(privateKeyRule.mask(pem('RSA PRIVATE KEY')), '-----BEGIN RSA PRIVATE KEY-----\n***\n-----END RSA PRIVATE KEY-----');
  t.equal(privateKeyRule.mask(pem('EC PRIVATE KEY').replace(/\n/g, '\\n')), '-----BEGIN EC PRIVATE KEY-----\\n***\\n-----END EC PRIVATE KEY-----');
});
