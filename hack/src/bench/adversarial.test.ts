import t from 'tap';
import { adversarialFamilies } from '@palisade/detectors/testing';
import { proseFamilies } from './adversarial-prose.js';
import { ADVERSARIAL_LARGE, ADVERSARIAL_SMALL, adversarialTargetMet, benchFamilies, formatAdversarialResults, runAdversarialSuite, verdict } from './adversarial.js';

t.test('every family builds exactly the size asked for, at both sizes', async (t) => {
  for (const family of benchFamilies()) {
    t.equal(family.build(ADVERSARIAL_SMALL).length, ADVERSARIAL_SMALL, family.name);
  }
  t.equal(adversarialFamilies()[0]!.build(ADVERSARIAL_LARGE).length, ADVERSARIAL_LARGE);
  t.equal(proseFamilies()[0]!.build(ADVERSARIAL_LARGE).length, ADVERSARIAL_LARGE);
});

t.test('the suite has a real-text family: the same prose in English, Russian and German on every run', async (t) => {
  const prose = benchFamilies().filter((f) => f.name.startsWith('prose'));
  t.same(prose.map((f) => f.name), ['prose en+ru+de']);
  const text = prose[0]!.build(ADVERSARIAL_SMALL);
  t.equal(text, prose[0]!.build(ADVERSARIAL_SMALL), 'deterministic');
  t.match(text, /the team|the committee/, 'English');
  t.match(text, /[а-яё]{4,} [а-яё]{4,}/, 'Russian');
  t.match(text, /\b(die|der|das) [A-ZÄÖÜ][a-zäöüß]+/, 'German');
  // Prose, not a run: most of a window's words differ.
  const words = text.slice(0, 1024).split(/\s+/);
  t.ok(new Set(words).size > words.length / 2, `${new Set(words).size} distinct of ${words.length} words`);
});

t.test('verdict: linear passes, quadratic or over 100 ms per MiB misses', async (t) => {
  t.same(verdict(3, 48), { ratio: 16, ok: true });
  t.equal(verdict(3, 3 * 256).ok, false, 'a quadratic scan: ratio 256');
  t.equal(verdict(8, 120).ok, false, 'linear but over 100 ms');
  t.equal(verdict(0.01, 5).ratio, 5, 'a sub-millisecond small run counts as 1 ms');
});

t.test('the suite runs each chosen family on each subject and reports the sizes it was given', async (t) => {
  const seen: number[] = [];
  const results = await runAdversarialSuite([{ name: 'length', run: (text) => seen.push(text.length) }], { families: ['run at', 'near-miss jwt'], rounds: 1 });
  t.same([...new Set(results.map((r) => r.family))], ['run at', 'near-miss jwt header only', 'near-miss jwt two parts']);
  t.same([...new Set(seen)].sort((a, b) => a - b), [ADVERSARIAL_SMALL, ADVERSARIAL_LARGE]);
  t.ok(adversarialTargetMet(results));
  t.match(formatAdversarialResults(results), /length: 3 families, 0 missed/);
  t.match(formatAdversarialResults([{ detector: 'slow', family: 'run at', smallMs: 1, largeMs: 300, ratio: 300, ok: false }]), /MISSED/);
});

t.test('a miss is measured once more after the pass: a passing second pair is kept, a detector slow both times still misses', async (t) => {
  const spin = (ms: number) => {
    const start = process.cpuUsage();
    for (;;) {
      const used = process.cpuUsage(start);
      if ((used.user + used.system) / 1000 >= ms) return;
    }
  };
  let largeCalls = 0;
  // 1 ms per 64 KiB call; its first four 1 MiB calls (the untimed one and three rounds) take 40 ms, later ones 12.
  const slowAtFirst = { name: 'slow-at-first', run: (text: string) => spin(text.length === ADVERSARIAL_LARGE ? (++largeCalls <= 4 ? 40 : 12) : 1) };
  const alwaysSlow = { name: 'always-slow', run: (text: string) => spin(text.length === ADVERSARIAL_LARGE ? 40 : 1) };
  const results = await runAdversarialSuite([slowAtFirst, alwaysSlow], { families: ['run at'], rounds: 3 });
  const [first, second] = results;
  t.equal(first!.detector, 'slow-at-first');
  t.ok(first!.ok, `passes when measured again (${first!.largeMs.toFixed(1)} ms)`);
  t.equal(first!.remeasured, true);
  t.equal(second!.detector, 'always-slow');
  t.notOk(second!.ok, `still missed (ratio ${second!.ratio.toFixed(1)})`);
  t.equal(second!.remeasured, true);
  t.match(formatAdversarialResults(results), /always-slow: 1 families, 1 missed \(1 measured twice\)/);
  const once = await runAdversarialSuite([alwaysSlow], { families: ['run at'], rounds: 1, remeasureMisses: false });
  t.equal(once[0]!.remeasured, undefined, 'not measured again when asked not to');
});
