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

t.test('German, French and Spanish words map to the concepts of their English translations; common words that only start like an entry do not', async (t) => {
  const lexicon = createThreatConceptLexicon();
  const concept = (word: string) => lexicon.names[lexicon.lookup(word)] ?? null;
  for (const [name, ...words] of [
    ['IGNORE', 'vergiss', 'ignoriere', 'oubliez', 'olvida'],
    ['PREVIOUS', 'vorherigen', 'obigen', 'précédentes', 'anteriores', 'oben', 'dessus'],
    ['INSTRUCTION', 'anweisungen', 'regeln', 'aufträge', 'consignes', 'règles', 'instrucciones', 'reglas'],
    ['SYSTEM', 'systemprompt', 'entwicklermodus', 'versteckten', 'système', 'sistema', 'interne'],
    ['REVEAL', 'zeig', 'wiederhole', 'montre', 'affiche', 'muéstrame', 'repite', 'dis', 'dime'],
    ['CREDENTIAL', 'passwort', 'contraseña', 'clé', 'clave'],
    ['ALL', 'alle', 'toutes', 'todas', 'wortwörtlich'],
    ['NEW', 'neue', 'jetzt', 'désormais', 'ahora'],
    ['NEGATE', 'nicht', 'ohne', 'sans', 'sin'],
    ['YOUR', 'deine', 'dir', 'votre', 'tus'],
    ['MODE', 'modus', 'modo'],
  ] as const) {
    for (const word of words) t.equal(concept(word), name, word);
  }
  for (const word of ['regelmäßig', 'international', 'internet', 'cache', 'normal', 'spiel', 'berlin']) t.equal(concept(word), null, word);
});
