import t from 'tap';
import { found } from '../../testing/pii.js';
import { githubTokenRule } from './github-token.js';

const tokens = (text: string) => found(text, 'GITHUB_TOKEN');
const body = 'aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6';

t.test('the five prefixes and fine-grained tokens', async (t) => {
  for (const prefix of ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_']) t.same(tokens(`token ${prefix}${body} ok`), [`${prefix}${body}`], prefix);
  const fine = `github_pat_11ABCDEFG0${body}_${body}${body.slice(0, 23)}`;
  t.same(tokens(`export GITHUB_TOKEN=${fine}`), [fine]);
  t.same(found(`token: ghp_${body}`, 'API_KEY'), [], 'reported as a GitHub token, not also as a key');
});

t.test('short tokens, SHAs and placeholders are not tokens', async (t) => {
  t.same(tokens(`ghp_${body.slice(0, 20)}`), []);
  t.same(tokens('commit 3f9a6b2c8d1e4f7a9b0c5d2e8f1a3b6c4d7e9f01'), []);
  t.same(tokens(`ghp_${'x'.repeat(36)}`), []);
  t.same(tokens(`xghp_${body}`), [], 'the prefix must start the token');
  t.same(tokens('gh-pages-2024'), []);
});

t.test('mask: prefix kept (our choice, like API keys)', async (t) => {
  t.equal(githubTokenRule.mask(`ghp_${body}`), `ghp_${'*'.repeat(36)}`);
});
