import t from 'tap';
import { tinyTokenId, writeTinyClassifierDir } from '../../testing/index.js';
import { loadExternalModelDir } from './model-dir.js';
import { createExternalTokenizer } from './tokenizer.js';

const [PAD, UNK, CLS, SEP] = [0, 1, 2, 3];
const id = tinyTokenId;

for (const kind of ['wordpiece', 'unigram'] as const) {
  t.test(`${kind} tokenizer.json: ids with the post-processor's special tokens`, async (t) => {
    const tokenizer = createExternalTokenizer(await loadExternalModelDir(await writeTinyClassifierDir({ tokenizer: kind })));
    const suffixS = kind === 'wordpiece' ? 18 : 19; // `##s` and `s` come after the words
    t.same(tokenizer.windows('Hello World, please summarize the reports'), [
      [CLS, id('hello'), id('world'), UNK, id('please'), id('summarize'), id('the'), id('report'), suffixS, SEP],
    ]);
    t.same(tokenizer.windows(''), [[CLS, SEP]], 'an empty prompt is one window of special tokens');
    t.equal(tokenizer.padId, PAD);
    t.equal(tokenizer.maxLength, 512);
  });
}

t.test('a long prompt is cut into overlapping windows of model_max_length tokens', async (t) => {
  const tokenizer = createExternalTokenizer(await loadExternalModelDir(await writeTinyClassifierDir({ maxLength: 16 })));
  const words = Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? 'hello' : 'world'));
  const windows = tokenizer.windows(`${words.join(' ')} pineapple`);
  // 41 tokens; 14 per window beside [CLS] and [SEP], a step of 11 (a quarter overlaps).
  t.equal(windows.length, 4);
  for (const w of windows) {
    t.ok(w.length <= 16);
    t.equal(w[0], CLS);
    t.equal(w.at(-1), SEP);
  }
  t.same(windows[1]!.slice(1, 4), windows[0]!.slice(12, 15), 'the second window starts inside the first');
  t.equal(windows.at(-1)!.at(-2), id('pineapple'), 'the last token is in the last window');
});
