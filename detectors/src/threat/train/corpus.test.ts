import t from 'tap';
import { capThreatGroups, threatCorpus } from './corpus.js';
import type { ThreatTrainingRow } from './dataset.js';

const row = (i: number, label: 0 | 1, source: string, licence_ok?: boolean): ThreatTrainingRow => ({ text: `t${i}`, label, source, lang: 'en', ...(licence_ok === undefined ? {} : { licence_ok }) });

t.test('the cap keeps at most N rows per source group and label, reproducibly, in file order', async (t) => {
  const rows = [
    ...Array.from({ length: 10 }, (_, i) => row(i, 0, 'clinc/oos-eval:data/data_full.json')),
    ...Array.from({ length: 3 }, (_, i) => row(100 + i, 1, 'microsoft/BIPIA:benchmark/email/train.jsonl')),
    ...Array.from({ length: 5 }, (_, i) => row(200 + i, 0, 'microsoft/BIPIA:benchmark/email/train.jsonl')),
  ];
  const capped = capThreatGroups(rows, 4, 9);
  t.equal(capped.filter((r) => r.source.startsWith('clinc')).length, 4);
  t.equal(capped.filter((r) => r.label === 1).length, 3);
  t.equal(capped.filter((r) => r.source.startsWith('microsoft') && r.label === 0).length, 4);
  t.same(capped, capThreatGroups(rows, 4, 9));
  t.same(capped, [...capped].sort((a, b) => rows.indexOf(a) - rows.indexOf(b)));
});

t.test('the corpus trains on licence_ok rows and the grammar, and keeps the rest for development checks', async (t) => {
  const fileRows = [row(1, 0, 'clinc/oos-eval:x', true), row(2, 1, 'EasyJailbreak/EasyJailbreak:x', false), row(3, 0, 'kristaller486/RuQualBench:x', false)];
  const corpus = threatCorpus(fileRows, { synth: { seed: 1, pairs: 20 }, capPerGroup: 1000, seed: 1 });
  t.same(corpus.excluded.map((r) => r.text), ['t2', 't3']);
  t.ok(corpus.training.some((r) => r.text === 't1'));
  t.ok(corpus.training.some((r) => r.source.startsWith('palisade/synth:')));
});
