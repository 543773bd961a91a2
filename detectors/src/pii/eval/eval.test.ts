import t from 'tap';
import { PII_TYPES } from '@palisade/core';
import { generatePiiCorpus } from './corpus.js';
import { belowGoal, evaluatePii, formatEvalTable, PII_EVAL_GOAL } from './evaluate.js';

t.test('the corpus is deterministic, labeled and covers every type', async (t) => {
  const a = generatePiiCorpus({ seed: 5, size: 300 });
  const b = generatePiiCorpus({ seed: 5, size: 300 });
  t.same(a, b, 'same seed, same corpus');
  t.not(JSON.stringify(generatePiiCorpus({ seed: 6, size: 300 })), JSON.stringify(a));
  for (const sample of a) {
    for (const e of sample.entities) t.ok(e.start >= 0 && e.end <= sample.text.length && e.end > e.start, `sample ${sample.id} span`);
  }
  const big = generatePiiCorpus({ seed: 11, size: 1200 });
  const types = new Set(big.flatMap((s) => s.entities.map((e) => e.type)));
  t.same([...types].sort(), [...PII_TYPES].sort());
  t.ok(big.some((s) => s.entities.length === 0), 'decoy-only samples');
});

t.test('scoring: exact spans per type, fuzzy for prompt leaks', async (t) => {
  const samples = [
    { id: 0, family: 'x', language: 'en' as const, text: 'a@b.com 12', entities: [{ type: 'EMAIL' as const, start: 0, end: 7 }] },
    { id: 1, family: 'x', language: 'en' as const, text: 'leak text here', entities: [{ type: 'SYSTEM_PROMPT_LEAK' as const, start: 0, end: 14 }] },
  ];
  const report = evaluatePii(samples, (s) =>
    s.id === 0
      ? [
          { type: 'EMAIL', start: 0, end: 6 },
          { type: 'INN', start: 8, end: 10 },
        ]
      : [{ type: 'SYSTEM_PROMPT_LEAK', start: 0, end: 9 }],
  );
  const email = report.types.find((r) => r.type === 'EMAIL')!;
  t.match(email, { tp: 0, fp: 1, fn: 1, precision: 0, recall: 0 }, 'a span off by one is wrong');
  t.match(report.types.find((r) => r.type === 'INN')!, { fp: 1, support: 0 });
  t.match(report.types.find((r) => r.type === 'SYSTEM_PROMPT_LEAK')!, { tp: 1, recall: 1 });
  t.ok(belowGoal(report).some((r) => r.type === 'EMAIL'));
});

t.test('the detector meets the goal on a corpus of 1200 samples (npm run eval:pii runs 5000)', async (t) => {
  const report = evaluatePii(generatePiiCorpus({ seed: 20240611, size: 1200 }));
  t.comment(formatEvalTable(report));
  for (const row of report.types) {
    t.ok(row.support > 20, `${row.type} has support`);
    t.ok(row.precision >= PII_EVAL_GOAL.precision, `${row.type} precision ${row.precision.toFixed(4)}`);
    t.ok(row.recall >= PII_EVAL_GOAL.recall, `${row.type} recall ${row.recall.toFixed(4)}`);
  }
  t.same(belowGoal(report), []);
});
