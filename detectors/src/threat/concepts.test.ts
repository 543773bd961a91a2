import t from 'tap';
import { createThreatConceptLexicon } from './concepts.js';

t.test('English and Russian words map to the same concepts', async (t) => {
  const lexicon = createThreatConceptLexicon();
  const concept = (word: string) => lexicon.names[lexicon.lookup(word)] ?? null;
  for (const [en, ru, name] of [
    ['ignore', 'игнорируй', 'IGNORE'],
    ['previous', 'предыдущие', 'PREVIOUS'],
    ['instructions', 'инструкции', 'INSTRUCTION'],
    ['system', 'системный', 'SYSTEM'],
    ['reveal', 'покажи', 'REVEAL'],
    ['password', 'пароль', 'CREDENTIAL'],
    ['all', 'все', 'ALL'],
  ] as const) {
    t.equal(concept(en), name, en);
    t.equal(concept(ru), name, ru);
  }
  t.equal(concept('apple'), null);
  t.equal(concept('не'), 'NEGATE', 'short words match exactly');
  t.equal(concept('небо'), null, 'and not as prefixes');
});
