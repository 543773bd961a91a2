import t from 'tap';
import { found } from '../../testing/pii.js';
import { apiKeyRule, vendorKeyOf } from './api-key.js';

const keys = (text: string) => found(text, 'API_KEY');

const OPENAI_LEGACY = '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';
const OPENAI_PROJECT = 'sk-proj-Xf3kL9mQ2wE7rT1yU8iO0pA4sD6fG2hJ5kL8zX1cV3bN7mQ9wE2rT5yU8iO0pA3s_D6fG9-hJ2kL5zX8';
const ANTHROPIC = `sk-ant-api03-${'Ab3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6kL9nP2rS5uV8xY1aD4fG7iK0lO3qR6tU9wX2zB5cE8gI1jM4oP7sV0'}AA`;
const AWS = 'AKIAIOSFODNN7EXAMPLE';
const GOOGLE = 'AIzaSyD3kL9mQ2wE7rT1yU8iO0pA4sD6fG2hJ5k';
const STRIPE = 'sk_live_51H8xYzAbCdEfGhIjKlMnOpQr';
const SLACK = 'xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx';

t.test('vendor keys by prefix and alphabet', async (t) => {
  for (const key of [OPENAI_LEGACY, OPENAI_PROJECT, ANTHROPIC, AWS, GOOGLE, STRIPE, SLACK, 'hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567', 'glpat-xY3zA9bC7dE5fG1hI2jK', 'sk-5f2b8c1d9e3a4b6c7d8e9f0a1b2c3d4e']) {
    t.same(keys(`key: ${key}`), [key], key.slice(0, 12));
  }
  t.same(keys(`OPENAI_API_KEY=${OPENAI_PROJECT}\n`), [OPENAI_PROJECT], '.env line');
  t.same(keys(`{"apiKey":"${GOOGLE}"}`), [GOOGLE], 'JSON');
  t.same(keys('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'), ['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'], 'SendGrid');
  t.same(keys('bot 123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw7'), ['123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw7'], 'Telegram bot token');
  t.same(keys('hook https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX'), ['https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX']);
});

t.test('secrets named by their key in configs and headers', async (t) => {
  t.same(keys('api_key: 3f9a6b2c8d1e4f7a9b0c5d2e8f1a3b6c'), ['3f9a6b2c8d1e4f7a9b0c5d2e8f1a3b6c']);
  t.same(keys('X-API-Key: Zq81mLw0Tn4vRb7yKc2xPd5s'), ['Zq81mLw0Tn4vRb7yKc2xPd5s']);
  t.same(keys('aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'), ['wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'], 'an AWS secret key by its name');
  t.same(keys('Authorization: Bearer Zq81mLw0Tn4vRb7yKc2xPd5s'), ['Zq81mLw0Tn4vRb7yKc2xPd5s']);
  t.same(keys('"client_secret": "Zq81mLw0Tn4vRb7yKc2xPd5s=="'), ['Zq81mLw0Tn4vRb7yKc2xPd5s=='], 'base64 padding kept');
});

t.test('a named secret or a Bearer far into a text, after prose the scan skips, in any ASCII case', async (t) => {
  const prose = 'The quarterly report covers revenue, churn and support volume across all regions. ';
  t.same(keys(`${prose.repeat(3)}api_key: 3f9a6b2c8d1e4f7a9b0c5d2e8f1a3b6c`), ['3f9a6b2c8d1e4f7a9b0c5d2e8f1a3b6c']);
  t.same(keys(`${prose}Authorization: BeArEr Zq81mLw0Tn4vRb7yKc2xPd5s and ${prose}`), ['Zq81mLw0Tn4vRb7yKc2xPd5s']);
  t.same(keys(`${prose}send BEARER Zq81mLw0Tn4vRb7yKc2xPd5s`), ['Zq81mLw0Tn4vRb7yKc2xPd5s']);
  t.same(keys(`${prose}xbearer Zq81mLw0Tn4vRb7yKc2xPd5s`), [], 'bearer inside a word');
  t.same(keys(`${prose}bеarer Zq81mLw0Tn4vRb7yKc2xPd5s`), [], 'a Cyrillic е is not an e');
  t.same(keys(`${'a=b; '.repeat(50)}secret_token => Zq81mLw0Tn4vRb7yKc2xPd5s`), ['Zq81mLw0Tn4vRb7yKc2xPd5s'], 'after many separators');
});

t.test('"sk-" inside words, placeholders and non-secrets are not keys', async (t) => {
  for (const text of [
    'task-force-management-2024-final-report',
    'risk-based-approach-for-2024-and-beyond',
    'pip install sk-learn',
    'sk-your-api-key-here',
    'sk-XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX',
    'AKIAXXXXXXXXXXXXXXXX',
    'api_key: ${OPENAI_API_KEY}',
    'api_key: your-api-key-goes-here-2024',
    'max_tokens: 4096',
    'token_count=123456789012345678',
    'next_page_token: Zq81mLw0Tn4vRb7yKc2xPd5s',
    'AIzaShort',
    'sk_test_short',
    'password: Zq81mLw0Tn4vRb7yKc2xPd5s',
  ]) {
    t.same(keys(text), [], text);
  }
  t.equal(vendorKeyOf('sk-this-is-a-long-hyphenated-phrase-2024'), undefined, 'no long random stretch');
});

t.test('mask: vendor prefix kept, the rest hidden (the spec)', async (t) => {
  t.equal(apiKeyRule.mask(OPENAI_PROJECT), `sk-proj-${'*'.repeat(OPENAI_PROJECT.length - 8)}`);
  t.equal(apiKeyRule.mask(AWS), 'AKIA****************');
  t.equal(apiKeyRule.mask(ANTHROPIC).slice(0, 8), 'sk-ant-*');
  t.equal(apiKeyRule.mask('123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw7'), `123456789:${'*'.repeat(35)}`);
  t.equal(apiKeyRule.mask('Zq81mLw0Tn4vRb7yKc2xPd5s'), '*'.repeat(24), 'no vendor prefix: all hidden');
});
