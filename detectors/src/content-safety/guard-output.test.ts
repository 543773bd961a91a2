import t from 'tap';
import { CONTENT_SAFETY_CATEGORIES } from '@palisade/core';
import { GuardOutputError, guardCategory, parseGuardOutput, stripThinking } from './guard-output.js';

t.test('the exact Qwen3Guard-Gen shapes', async (t) => {
  t.same(parseGuardOutput('Safety: Safe\nCategories: None'), { safety: 'Safe', categories: [], unmapped: [], refusal: null });
  t.same(parseGuardOutput('Safety: Unsafe\nCategories: Violent'), { safety: 'Unsafe', categories: ['violence'], unmapped: [], refusal: null });
  t.same(parseGuardOutput('Safety: Controversial\nCategories: Politically Sensitive Topics'), {
    safety: 'Controversial',
    categories: ['political_sensitive'],
    unmapped: [],
    refusal: null,
  });
  t.same(parseGuardOutput('Safety: Unsafe\nCategories: Violent, Non-violent Illegal Acts, Jailbreak\nRefusal: No'), {
    safety: 'Unsafe',
    categories: ['violence', 'illegal_acts', 'jailbreak'],
    unmapped: [],
    refusal: false,
  });
  t.same(parseGuardOutput('Safety: Safe\nCategories: None\nRefusal: Yes'), { safety: 'Safe', categories: [], unmapped: [], refusal: true });
});

t.test('every guard category name maps to one of the 9', async (t) => {
  const names: Record<string, string> = {
    Violent: 'violence',
    'Non-violent Illegal Acts': 'illegal_acts',
    'Sexual Content or Sexual Acts': 'sexual',
    PII: 'pii',
    'Suicide & Self-Harm': 'self_harm',
    'Unethical Acts': 'unethical',
    'Politically Sensitive Topics': 'political_sensitive',
    'Copyright Violation': 'copyright',
    Jailbreak: 'jailbreak',
  };
  for (const [name, category] of Object.entries(names)) t.equal(guardCategory(name), category, name);
  t.same(new Set(Object.values(names)), new Set(CONTENT_SAFETY_CATEGORIES), 'all 9 are reachable');
  for (const id of CONTENT_SAFETY_CATEGORIES) t.equal(guardCategory(id), id, `the spec id ${id} is accepted too`);
  t.equal(guardCategory('None'), undefined);
  t.equal(guardCategory('Weapons'), undefined);
  const all = parseGuardOutput(`Safety: Unsafe\nCategories: ${Object.keys(names).join(', ')}`);
  t.same(all.categories, Object.values(names));
});

t.test('lenient about case, spacing, separators, markdown and repeats', async (t) => {
  t.same(parseGuardOutput('safety: unsafe\ncategories: violent'), { safety: 'Unsafe', categories: ['violence'], unmapped: [], refusal: null });
  t.same(parseGuardOutput('  SAFETY :   UNSAFE  \r\n\r\n  Categories:   suicide   &   self-harm ;  PII  \r\n refusal: YES \n'), {
    safety: 'Unsafe',
    categories: ['self_harm', 'pii'],
    unmapped: [],
    refusal: true,
  });
  t.same(parseGuardOutput('**Safety:** Controversial\n**Categories:** Sexual Content or Sexual Acts.'), {
    safety: 'Controversial',
    categories: ['sexual'],
    unmapped: [],
    refusal: null,
  });
  t.same(parseGuardOutput('- Safety: Unsafe\n- Categories: Violent, violent, VIOLENT'), { safety: 'Unsafe', categories: ['violence'], unmapped: [], refusal: null });
  t.same(parseGuardOutput('Safety：Unsafe\nCategories：Jailbreak'), { safety: 'Unsafe', categories: ['jailbreak'], unmapped: [], refusal: null }, 'full-width colon');
  t.same(parseGuardOutput('Safety: Unsafe'), { safety: 'Unsafe', categories: [], unmapped: [], refusal: null }, 'no Categories line');
  t.same(parseGuardOutput('Here is my assessment.\nSafety: Safe\nCategories: None\nThat is all.'), { safety: 'Safe', categories: [], unmapped: [], refusal: null }, 'chatter around the lines');
  t.same(parseGuardOutput('Safety: Unsafe\nSafety: Unsafe\nCategories: Violent\nCategory: Copyright Violation'), {
    safety: 'Unsafe',
    categories: ['violence', 'copyright'],
    unmapped: [],
    refusal: null,
  });
});

t.test('<think> blocks are skipped', async (t) => {
  t.same(parseGuardOutput('<think>\nThe user asks about safety: unsafe things? Safety: Safe maybe.\n</think>\n\nSafety: Unsafe\nCategories: Violent'), {
    safety: 'Unsafe',
    categories: ['violence'],
    unmapped: [],
    refusal: null,
  });
  t.same(parseGuardOutput('<THINK></THINK>Safety: Safe\nCategories: None'), { safety: 'Safe', categories: [], unmapped: [], refusal: null });
  t.same(parseGuardOutput('reasoning without an opening tag\nSafety: Unsafe\n</think>\nSafety: Safe\nCategories: None'), { safety: 'Safe', categories: [], unmapped: [], refusal: null });
  t.equal(stripThinking('<think>a</think>b<think>c</think>d'), 'bd');
  t.equal(stripThinking('x<think>never closed'), 'x');
  const cut = () => parseGuardOutput('<think>\nLet me consider whether this is Safety: Unsafe');
  t.throws(cut, GuardOutputError);
  t.throws(cut, /ended inside a <think> block/);
});

t.test('unknown category names are kept aside, not dropped silently nor fatal', async (t) => {
  t.same(parseGuardOutput('Safety: Unsafe\nCategories: Weapons, Violent, Hate Speech, Weapons'), {
    safety: 'Unsafe',
    categories: ['violence'],
    unmapped: ['Weapons', 'Hate Speech'],
    refusal: null,
  });
  t.same(parseGuardOutput('Safety: Unsafe\nCategories: None, Jailbreak'), { safety: 'Unsafe', categories: ['jailbreak'], unmapped: [], refusal: null });
});

t.test('output that does not parse is an error, never Safe', async (t) => {
  for (const garbage of ['', '   ', 'I cannot help with that.', 'Categories: Violent', 'Safe', 'Safety Safe', '{"safety":"safe"}', 'Refusal: No']) {
    t.throws(() => parseGuardOutput(garbage), GuardOutputError, JSON.stringify(garbage));
  }
  t.throws(() => parseGuardOutput('Safety: Maybe\nCategories: None'), /unknown safety level "Maybe"/);
  t.throws(() => parseGuardOutput('Safety: Safe\nSafety: Unsafe'), /two different safety levels \(Safe and Unsafe\)/);
  t.throws(() => parseGuardOutput('Safety: Safe\nRefusal: Perhaps'), /unknown refusal answer "Perhaps"/);
  try {
    parseGuardOutput('x'.repeat(1000));
    t.fail('should throw');
  } catch (error) {
    t.ok(error instanceof GuardOutputError);
    const e = error as GuardOutputError;
    t.equal(e.output.length, 1000, 'the whole answer is kept on the error');
    t.ok(e.message.length < 400, 'the message shows a short excerpt');
  }
});
