import { JSONPath } from 'jsonpath-plus';
import t from 'tap';
import { compilePath } from './compiled-path.js';
import { decodePointer } from './json-pointer.js';
import { MAPPING_PRESETS, TOOL_ARGUMENT_PATHS } from './presets.js';

/** What jsonpath-plus answers, as path-query.ts reads it. */
function reference(path: string, body: unknown): Array<{ pointer: unknown; value: unknown }> {
  const found = JSONPath({ path, json: body as object, resultType: 'all', wrap: true, eval: 'safe', ignoreEvalErrors: true }) as unknown;
  if (!Array.isArray(found)) return [];
  return found.map((r: { pointer: string; value: unknown }) => ({ pointer: decodePointer(r.pointer, body), value: r.value }));
}

const PRESET_PATHS = [
  ...Object.values(MAPPING_PRESETS).flatMap((m) => Object.values(m) as string[]),
  ...Object.values(TOOL_ARGUMENT_PATHS).flatMap((list) => (list ?? []).map((p) => p.path)),
];

// Keys that the paths name, and keys that collide with path syntax.
const KEYS = ['messages', 'role', 'content', 'text', 'type', 'name', 'choices', 'message', 'tool_calls', 'function', 'arguments', 'inputs', 'outputs', 'data', 'input', 'output', 'model', 'system', 'prompt', 'contents', 'parts', 'candidates', 'generated_text', 'images', 'url', '*', 'length', '0', '1', "?(@.role=='user')", 'toString'];
const STRINGS = ['user', 'system', 'assistant', 'tool_use', 'function_call', 'prompt', 'text', 'model', '', 'user ', 'USER'];

/** A seeded generator (mulberry32): the same bodies on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

function body(next: () => number, depth: number): unknown {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const r = next();
  if (depth === 0 || r < 0.25) return pick<unknown>([...STRINGS, 0, 1, true, false, null, ['user'], []]);
  if (r < 0.55) return Array.from({ length: Math.floor(next() * 4) }, () => body(next, depth - 1));
  const out: Record<string, unknown> = {};
  for (let i = Math.floor(next() * 5); i > 0; i--) out[pick(KEYS)] = body(next, depth - 1);
  return out;
}

t.test('every preset path is compiled, and unusual forms are left to jsonpath-plus', async (t) => {
  for (const path of new Set(PRESET_PATHS)) t.ok(compilePath(path), path);
  for (const path of ['$', '$..content', '$.a[0:2]', '$.a[-1]', "$[?(@.constructor=='x')]", '$.a[?(@.b>1)]', '$.a^', "$['a.b']", 'messages', "$.a[?(@.b=='c.d')]"]) {
    t.equal(compilePath(path), undefined, path);
  }
});

t.test('the compiled walk answers exactly what jsonpath-plus answers (values, pointers, order)', async (t) => {
  const paths = [
    ...new Set(PRESET_PATHS),
    '$.messages.length',
    '$.content[0]',
    '$.*',
    '$.*.*',
    '$[*]',
    '$[0].generated_text',
    "$['messages'][1]['content']",
    "$.messages[?(@.role!='system')].content",
    "$.messages[?(@.role == 'user')]",
    '$.messages[*][*]',
    "$.*[?(@.type=='text')].text",
  ];
  const next = random(20261127);
  let compared = 0;
  let matched = 0;
  for (let i = 0; i < 4000; i++) {
    const doc = i % 2 === 0 ? body(next, 5) : { messages: body(next, 3), content: body(next, 3), choices: body(next, 4), inputs: body(next, 3), output: body(next, 4), '*': body(next, 2) };
    for (const path of paths) {
      const expected = reference(path, doc);
      const actual = (compilePath(path) as NonNullable<ReturnType<typeof compilePath>>)(doc);
      compared++;
      matched += expected.length;
      if (actual.length !== expected.length || actual.some((m, k) => !Object.is(m.value, expected[k]!.value) || JSON.stringify(m.pointer) !== JSON.stringify(expected[k]!.pointer))) {
        t.fail(`${path} on ${JSON.stringify(doc)}: ${JSON.stringify(actual)} != ${JSON.stringify(expected)}`);
        return;
      }
    }
  }
  t.ok(matched > 10_000, `the bodies exercise the paths (${matched} matches in ${compared} comparisons)`);
});
