// JSON text as the checks read tool-call arguments: escapes decoded with each character's raw offset,
// string literals told apart from the rest whatever the fragments, rewrites that keep the JSON valid.
import t from 'tap';
import fc from 'fast-check';
import { decodeJsonEscapes, JsonStrings, rewriteJsonText } from './json-text.js';

t.test('escapes are decoded and every decoded character maps to its raw offset', async (t) => {
  const raw = String.raw`{"a": "x\"y\\z\u0040\ud83d\ude42\n", "b": 1}`;
  const decoded = decodeJsonEscapes(raw);
  t.equal(decoded.text, '{"a": "x"y\\z@🙂\n", "b": 1}');
  t.equal(decoded.rawAt![decoded.text.indexOf('@')], raw.indexOf('\\u0040'));
  t.equal(decoded.rawAt![decoded.text.length], raw.length);
  t.same(decodeJsonEscapes('no escapes'), { text: 'no escapes' }, 'no map when nothing is escaped');
  t.equal(decodeJsonEscapes('cut \\u00').text, 'cut \\u00', 'an escape cut at the end stays as it is');
});

t.test('string literals are found the same whatever the fragments', async (t) => {
  await fc.assert(
    fc.property(fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.integer(), fc.array(fc.string()))), fc.array(fc.nat(), { maxLength: 10 }), (value, cuts) => {
      const raw = JSON.stringify(value);
      const whole = new JsonStrings();
      whole.push(raw);
      const parts = new JsonStrings();
      const points = [...new Set(cuts.map((c) => c % (raw.length + 1)))].sort((a, b) => a - b);
      let at = 0;
      for (const p of [...points, raw.length]) {
        parts.push(raw.slice(at, p));
        at = Math.max(at, p);
      }
      for (let i = 0; i < raw.length; i++) if (whole.holds(i, i + 1) !== parts.holds(i, i + 1)) throw new Error(`offset ${i} of ${raw}`);
    }),
  );
  const strings = new JsonStrings();
  strings.push('{"card": 4111, "n": "ab');
  t.notOk(strings.holds(9, 13), 'a number is not inside a string');
  t.ok(strings.holds(21, 23), 'an open string holds its text so far');
  t.notOk(strings.holds(2, 12), 'a span from a key into the next value is not in one string');
});

t.test('any rewrite of a span inside a string keeps the JSON valid and changes that span only', async (t) => {
  await fc.assert(
    fc.property(fc.array(fc.string({ unit: 'binary' }), { minLength: 1, maxLength: 5 }), fc.nat(), fc.nat(), fc.string({ unit: 'binary' }), (values, pick, at, replacement) => {
      const index = pick % values.length;
      const before = `{"values":[${values.slice(0, index).map((v) => `${JSON.stringify(v)},`).join('')}`;
      const raw = `${before}${values.slice(index).map((v) => JSON.stringify(v)).join(',')}],"n":3}`;
      const decoded = decodeJsonEscapes(raw);
      const value = values[index]!;
      // The value's first decoded character: after the decoded text before it and its opening quote.
      const open = decodeJsonEscapes(before).text.length + 1;
      const start = open + (value.length === 0 ? 0 : at % value.length);
      const end = open + value.length;
      const rewritten = rewriteJsonText(raw, decoded, [{ start, end, replacement }]);
      if (rewritten === null) throw new Error('a span inside a string must be rewritable');
      const parsed = JSON.parse(rewritten) as { values: string[]; n: number };
      const expected = values.map((v, k) => (k === index ? v.slice(0, start - open) + replacement : v));
      if (JSON.stringify(parsed) !== JSON.stringify({ values: expected, n: 3 })) throw new Error(`${rewritten} != ${JSON.stringify(expected)}`);
    }),
  );
  t.equal(rewriteJsonText('{"card": 4111111111111111}', { text: '{"card": 4111111111111111}' }, [{ start: 9, end: 25, replacement: '****' }]), null, 'outside a string: refused');
});

t.test("a whole text's one-pass check refuses exactly the spans JsonStrings says are not inside one string", async (t) => {
  await fc.assert(
    fc.property(fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.integer(), fc.array(fc.string()))), fc.array(fc.tuple(fc.nat(), fc.nat({ max: 8 })), { maxLength: 4 }), (value, picks) => {
      const raw = JSON.stringify(value);
      if (raw.length === 0) return;
      // Sorted spans, apart.
      const spans: Array<{ start: number; end: number; replacement: string }> = [];
      let from = 0;
      for (const [offset, length] of picks) {
        const start = from + (offset % Math.max(1, raw.length - from));
        const end = Math.min(raw.length, start + length);
        if (start >= raw.length) break;
        spans.push({ start, end, replacement: 'x' });
        from = end + 1;
        if (from >= raw.length) break;
      }
      const strings = new JsonStrings();
      strings.push(raw);
      const expected = spans.every((s) => strings.holds(s.start, s.end));
      const got = rewriteJsonText(raw, { text: raw }, spans) !== null;
      if (got !== expected) throw new Error(`${raw} ${JSON.stringify(spans)}: one pass ${got}, JsonStrings ${expected}`);
    }),
    { numRuns: 2000 },
  );
  t.pass('both readers agree');
});
