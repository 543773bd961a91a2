import t from 'tap';
import { prefixAlternation } from './prefix-regex.js';

t.test('a trie of literal prefixes matches exactly the prefixes, longest first', async (t) => {
  const prefixes = ['sk-', 'sk-ant-', 'sk-proj-', 'sk_live_', 'AKIA', 'AIza', 'key-', 'x.y'];
  const re = new RegExp(`^(?:${prefixAlternation(prefixes)})`);
  for (const p of prefixes) t.equal(re.exec(`${p}rest`)?.[0], p, p);
  t.equal(re.exec('sk-antelope')?.[0], 'sk-', 'a partial longer prefix falls back to the shorter one');
  t.equal(re.exec('sk-ant-api03')?.[0], 'sk-ant-');
  t.equal(re.exec('xzy'), null, 'a dot is literal');
  t.equal(re.exec('AKIB'), null);
  t.equal(new RegExp(prefixAlternation([])).test('anything'), false);
});
