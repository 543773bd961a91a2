import t from 'tap';
import { createMarianTokenizer, toPieceText } from './tokenizer.js';

const vocab = { '</s>': 0, '<unk>': 1, '▁he': 2, '▁hello': 3, 'llo': 4, '▁wor': 5, 'ld': 6, '▁': 7, 'x': 8, '>>fra<<': 9, '<pad>': 10 };

t.test('SentencePiece pre-processing: NFKC, whitespace runs, a word mark in front', async (t) => {
  t.equal(toPieceText('  hello \n\t world '), '▁hello▁world');
  t.equal(toPieceText('ｈｅｌｌｏ'), '▁hello');
  t.equal(toPieceText(' \n '), '');
});

t.test('greedy longest match over vocab.json, </s> at the end, exact decoding', async (t) => {
  const tok = createMarianTokenizer({ vocab });
  t.same(tok.special, { eos: 0, unk: 1, pad: 10 });
  t.equal(tok.vocabSize, 11);
  t.same(tok.encode('hello world'), [3, 5, 6, 0], 'the longest piece wins (▁hello, not ▁he + llo)');
  t.same(tok.encode('hexyz'), [2, 8, 1, 0], 'unknown characters: one <unk> for a run');
  t.same(tok.encode('>>fra<<'), [7, 1, 0], 'control pieces never match inside text');
  t.same(tok.encode(''), [0]);
  t.equal(tok.decode([3, 5, 6, 0]), 'hello world');
  t.equal(tok.decode([10, 2, 4, 1, 0]), 'hello', 'special ids are left out');
});

t.test('a vocabulary without its special pieces is refused', async (t) => {
  t.throws(() => createMarianTokenizer({ vocab: { a: 0 } }), /end-of-sentence piece "<\/s>"/);
  t.throws(() => createMarianTokenizer({ vocab: { ...vocab, bad: -1 } }), /non-negative integer/);
  const custom = createMarianTokenizer({ vocab: { '[E]': 0, '[U]': 1, '[P]': 2 }, eosToken: '[E]', unkToken: '[U]', padToken: '[P]' });
  t.same(custom.special, { eos: 0, unk: 1, pad: 2 });
});
