// Generated inputs built to make a scanner go quadratic: runs of one character class, runs of two
// classes alternating, and near-misses of every entity repeated (the start of a match that never
// completes, so a scan restarting at each position pays for the whole run each time). The bench's
// adversarial suite times every detector on them; the fuzz tests put them around known entities.

/** One unit of each character class a scanner branches on. */
export const ADVERSARIAL_CLASSES: Readonly<Record<string, string>> = {
  at: '@',
  dot: '.',
  plus: '+',
  digit: '7',
  dash: '-',
  space: ' ',
  newline: '\n',
  underscore: '_',
  colon: ':',
  slash: '/',
  equals: '=',
  comma: ',',
  semicolon: ';',
  paren: '(',
  dquote: '"',
  squote: "'",
  backslash: '\\',
  letter: 'a',
  upper: 'Z',
  cyrillic: 'я',
  pem: '-----',
  jwt: 'eyJ',
  scheme: '://',
};

/** Near-misses: the beginning of every entity (and of the rules' context words) that never completes. */
export const NEAR_MISSES: Readonly<Record<string, string>> = {
  'email local part': 'ivan.petrov@',
  'email no tld': 'a@b ',
  'email dotted run': 'a@a.',
  'card bad luhn': '4111 1111 1111 1112 ',
  'card 15 digits': '411111111111111 ',
  'digit groups of four': '4111 ',
  'phone prefix': '+7 916 ',
  'phone trunk': '+41 (0)',
  'phone exit prefix': '00 41 ',
  'phone short': 'тел. 916 12',
  'inn 9 digits': 'ИНН 770708389 ',
  'snils short': 'СНИЛС 112-233-44 ',
  'passport short': 'паспорт 45 08 ',
  'passport key': 'passport_no=',
  'api key prefix': 'sk-',
  'api key assignment': 'api_key=',
  'token assignment': 'token=',
  'github token prefix': 'ghp_',
  'jwt header only': 'eyJhbGciOiJIUzI1NiJ9.',
  'jwt two parts': 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0',
  'pem begin no end': '-----BEGIN RSA PRIVATE KEY-----\nAAAA',
  'pem dashes': '-----BEGIN ',
  'database url no host': 'postgres://u:p@',
  'database url scheme': 'postgres://u:',
  'connection string key': 'Server=a;Password=b;',
  'token characters': 'Ab1_',
  'hex run': 'deadbeef',
  'quoted key': '"password": "',
  'override verb': 'ignore ',
  'zero-width split word': 'i\u200bg\u200bn\u200bo\u200br\u200be ',
  'mixed script word': 'em\u0430il ',
  // Extraction requests each guard refuses (negated, someone else's, not at a request's end): every
  // verb starts a search that fails, where an accepted one ends the window's search at once.
  'negated extraction': 'do not share your password ',
  'previous message request': 'summarize the previous message in ',
  'rules of a game ru': 'перечисли полные правила игры ',
  'negated extraction de': 'zeig niemals dein passwort ',
};

export interface AdversarialFamily {
  name: string;
  /** The text of about `size` UTF-16 code units. */
  build(size: number): string;
}

export const repeatTo = (unit: string, size: number): string => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);

/**
 * Every family: each class alone, each unordered pair of classes alternating, each near-miss repeated,
 * and a long run of letters before one short entity (a scan that reads back from each "@").
 */
export function adversarialFamilies(): AdversarialFamily[] {
  const classes = Object.entries(ADVERSARIAL_CLASSES);
  const families: AdversarialFamily[] = [];
  for (const [name, unit] of classes) families.push({ name: `run ${name}`, build: (size) => repeatTo(unit, size) });
  for (let i = 0; i < classes.length; i++) {
    for (let j = i + 1; j < classes.length; j++) {
      const [a, unitA] = classes[i]!;
      const [b, unitB] = classes[j]!;
      families.push({ name: `pair ${a}+${b}`, build: (size) => repeatTo(unitA + unitB, size) });
    }
  }
  for (const [name, unit] of Object.entries(NEAR_MISSES)) families.push({ name: `near-miss ${name}`, build: (size) => repeatTo(unit, size) });
  const runThen = (unit: string, tail: string) => (size: number) => (repeatTo(unit, Math.max(0, size - tail.length)) + tail).slice(0, size);
  families.push({ name: 'letters then address', build: runThen('a', '@a.com') });
  families.push({ name: 'digits then phone', build: runThen('7', ' +7 916 123-45-67') });
  return families;
}
