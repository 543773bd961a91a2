import t from 'tap';
import RE2 from 're2';
import { createPatternSet, type SetMatcher } from './pattern-set.js';

const singlesOf = (sources: string[]) => sources.map((s) => new RE2(s, 'gu'));
const sources = ['alpha', '(?i)BRAVO', '\\bc\\d+', 'delta$', 'zulu'];
const text = 'alpha bravo c42 delta';

t.test('reports the indices of every matching pattern, across chunks', async (t) => {
  for (const chunkSize of [1, 2, 512]) {
    const set = createPatternSet(sources, singlesOf(sources), { chunkSize });
    t.same(set.match(text), [0, 1, 2, 3], `chunk size ${chunkSize}`);
    t.same(set.match('nothing here'), []);
    t.equal(set.size, 5);
  }
  t.same(createPatternSet([], []).match(text), [], 'an empty set matches nothing');
});

t.test('a chunk RE2 cannot build is split until single patterns, which answer alone', async (t) => {
  const built: number[] = [];
  const buildSet = (chunk: readonly string[]): SetMatcher => {
    if (chunk.length > 1 && chunk.includes('(?i)BRAVO')) throw new Error('RE2.Set could not be compiled.');
    if (chunk.length === 1 && chunk[0] === '(?i)BRAVO') throw new Error('RE2.Set could not be compiled.');
    built.push(chunk.length);
    return new RE2.Set(chunk, 'u');
  };
  const set = createPatternSet(sources, singlesOf(sources), { chunkSize: 4, buildSet });
  t.same(set.match(text), [0, 1, 2, 3], 'the unbuildable pattern still answers through its single regex');
  t.same(set.match('BRAVO'), [1]);
  t.same(built, [1, 2, 1], 'halves: [alpha] then [c, delta]; zulu in its own chunk');
});

t.test('a set failing while matching (DFA out of memory) answers through its single regexes', async (t) => {
  const failing: SetMatcher = {
    match() {
      throw new Error('RE2.Set matching failed: out of memory.');
    },
  };
  const set = createPatternSet(sources, singlesOf(sources), { chunkSize: 2, buildSet: (c) => (c.includes('alpha') ? failing : new RE2.Set(c, 'u')) });
  t.same(set.match(text), [0, 1, 2, 3]);
  t.same(set.match(text), [0, 1, 2, 3], 'the singles are left reusable');
});

t.test('sources and singles must line up', async (t) => {
  t.throws(() => createPatternSet(['a'], []), /differ in length/);
});
