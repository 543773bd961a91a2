// A small bilingual lexicon of the concepts injections are made of (ignore / previous / instructions /
// reveal / system…). Words of either language map to the same concept tokens, and concept n-grams
// ("REVEAL ALL SYSTEM INSTRUCTION") become features. That is how an attack phrased in Russian borrows
// what the model learnt from English rows and the other way round, and how a paraphrase with new
// words but the same structure still looks like an attack.

export interface ThreatConcept {
  readonly name: string;
  /** Words that start with one of these (lower-case) map to the concept. */
  readonly prefixes: readonly string[];
  /** Words equal to one of these map to the concept (short words, where a prefix would over-match). */
  readonly words?: readonly string[];
}

export const THREAT_CONCEPTS: readonly ThreatConcept[] = [
  {
    name: 'IGNORE',
    prefixes: ['ignor', 'disregard', 'forget', 'forgot', 'overrid', 'bypass', 'neglect', 'abandon', 'игнор', 'проигнор', 'забудь', 'забуд', 'забыв', 'забыть', 'пренебр', 'отбрось', 'отброс', 'отмен', 'обойд', 'обход'],
    words: ['skip', 'drop', 'cancel'],
  },
  {
    name: 'PREVIOUS',
    prefixes: ['previous', 'prior', 'earlier', 'preceding', 'former', 'original', 'initial', 'предыдущ', 'прошл', 'ранее', 'ранн', 'вышеуказ', 'вышеизлож', 'прежн', 'исходн', 'изначальн', 'первоначальн', 'начальн'],
    words: ['above', 'before', 'выше', 'старые', 'старых'],
  },
  {
    name: 'INSTRUCTION',
    prefixes: ['instruct', 'rule', 'directive', 'guideline', 'prompt', 'command', 'polic', 'restrict', 'constrain', 'programming', 'configur', 'setting', 'инструкц', 'правил', 'директив', 'указани', 'промпт', 'команд', 'приказ', 'ограничен', 'настройк', 'конфигурац', 'установк', 'политик', 'запрет'],
    words: ['orders', 'guidance'],
  },
  {
    name: 'SYSTEM',
    prefixes: ['system', 'hidden', 'secret', 'internal', 'confidential', 'developer', 'private', 'backend', 'систем', 'скрыт', 'секрет', 'внутренн', 'конфиденц', 'служебн', 'разработчик', 'приватн', 'тайн', 'закрыт'],
  },
  {
    name: 'REVEAL',
    prefixes: ['reveal', 'show', 'print', 'repeat', 'output', 'display', 'leak', 'disclos', 'recit', 'dump', 'expos', 'reproduc', 'spell', 'divulg', 'покаж', 'покази', 'выведи', 'вывест', 'выведит', 'вывод', 'раскр', 'повтор', 'напиш', 'расскаж', 'скажи', 'скажит', 'сообщ', 'перечисл', 'процитир', 'цитир', 'воспроизв', 'распечат', 'подели', 'озвуч', 'продемонстр', 'отобраз', 'опубликуй', 'выдай'],
    words: ['share', 'tell', 'give', 'list', 'write', 'дай', 'дайте'],
  },
  {
    name: 'CREDENTIAL',
    prefixes: ['password', 'passcode', 'passphrase', 'credential', 'token', 'apikey', 'парол', 'ключ', 'токен', 'учётн', 'учетн', 'кодов'],
    words: ['key', 'keys', 'pin'],
  },
  {
    name: 'ALL',
    prefixes: ['entire', 'verbatim', 'exact', 'complete', 'целик', 'дословн', 'полност', 'полн', 'кажд', 'точн'],
    words: ['all', 'every', 'everything', 'full', 'whole', 'each', 'все', 'всё', 'весь', 'вся', 'всю', 'всех'],
  },
  {
    name: 'PERSONA',
    prefixes: ['pretend', 'roleplay', 'persona', 'character', 'simulat', 'imperson', 'притвор', 'представь', 'вообраз', 'изобраз', 'сыграй', 'играй', 'персонаж', 'роль', 'роли'],
    words: ['act', 'role'],
  },
  {
    name: 'UNRESTRICTED',
    prefixes: ['unrestrict', 'unfilter', 'uncensor', 'unlimit', 'amoral', 'unethic', 'jailbr', 'unbound', 'lawless', 'неогранич', 'нецензур', 'аморальн', 'безнравств', 'джейлбр', 'взлом', 'беспредел'],
    words: ['dan', 'freedom', 'unchained', 'evil'],
  },
  {
    name: 'SAFETY',
    prefixes: ['refus', 'declin', 'apolog', 'warning', 'disclaim', 'moral', 'ethic', 'censor', 'filter', 'safety', 'safeguard', 'guardrail', 'отказ', 'извин', 'предупрежд', 'морал', 'этик', 'этич', 'цензур', 'фильтр', 'безопасн', 'модерац'],
  },
  {
    name: 'NEW',
    prefixes: ['instead', 'updated', 'henceforth', 'теперь', 'отныне', 'вместо', 'обновл'],
    words: ['new', 'now', 'новые', 'новая', 'новое', 'новый', 'новых'],
  },
  {
    name: 'RESPOND',
    prefixes: ['respon', 'answer', 'repl', 'ответ', 'отвеч'],
  },
  {
    name: 'BEGIN',
    prefixes: ['begin', 'start', 'prefix', 'начни', 'начина', 'начать', 'начнит'],
  },
  {
    name: 'NEGATE',
    prefixes: ['never', 'никогда'],
    words: ['not', "don't", 'dont', 'no', 'without', 'не', 'нет', 'без', 'ни'],
  },
  {
    name: 'YOUR',
    prefixes: ['yourself', 'твой', 'твоя', 'твои', 'твоё', 'твое', 'твоих', 'твоим', 'свой', 'своя', 'свои', 'своё', 'свое', 'своих', 'своим', 'ваш'],
    words: ['your', 'you', 'ты', 'тебе', 'тебя', 'вы', 'вам', 'вас'],
  },
  {
    name: 'MODE',
    prefixes: ['mode', 'режим'],
  },
];

export interface ThreatConceptLexicon {
  /** The concept index of a lower-case word, or -1. */
  lookup(word: string): number;
  /** lookup() of the word in code units [start, end) of `codes`, without cutting it out as a string. */
  lookupCodes(codes: Uint16Array, start: number, end: number): number;
  /** False when no word or prefix of the lexicon starts with these two code units (0xffff: a one-unit word). */
  mayStart(first: number, second: number): boolean;
  readonly names: readonly string[];
}

/** The first two code units of a word as one number (a one-unit word has 0xffff second). */
function startKey(word: string): number {
  return word.charCodeAt(0) * 0x10000 + (word.length > 1 ? word.charCodeAt(1) : 0xffff);
}

/**
 * Indexes the lexicon by the first two code units of each prefix, so a lookup tries only a few. Most
 * words of a prompt start like no word or prefix of the lexicon and are ruled out by one numeric set
 * test, without hashing the word for a map.
 */
export function createThreatConceptLexicon(concepts: readonly ThreatConcept[] = THREAT_CONCEPTS): ThreatConceptLexicon {
  const exact = new Map<string, number>();
  const byStart = new Map<number, Array<{ prefix: string; concept: number }>>();
  concepts.forEach((c, concept) => {
    for (const w of c.words ?? []) exact.set(w, concept);
    for (const prefix of c.prefixes) {
      const key = startKey(prefix);
      const list = byStart.get(key) ?? [];
      list.push({ prefix, concept });
      byStart.set(key, list);
    }
  });
  for (const list of byStart.values()) list.sort((a, b) => b.prefix.length - a.prefix.length);
  const starts = new Set([...exact.keys()].map(startKey).concat([...byStart.keys()]));
  // The first code units of those starts: most words are ruled out by one array read.
  const firstUnits = new Uint8Array(0x10000);
  for (const key of starts) firstUnits[Math.floor(key / 0x10000)] = 1;
  // The starts by a 16-bit hash of both code units: most words whose first unit some start has (every
  // word that starts with a common letter) are ruled out by a second array read instead of a set test.
  const pairOf = (first: number, second: number): number => (Math.imul(first, 0x9e3779b1) ^ Math.imul(second, 0x85ebca6b)) >>> 16;
  const startPairs = new Uint8Array(0x10000);
  for (const key of starts) startPairs[pairOf(Math.floor(key / 0x10000), key % 0x10000)] = 1;
  // The same lexicon by start key as code units, for lookupCodes: the exact words (one per word, as
  // the map holds them) and the prefixes, longest first.
  const units = (word: string): Uint16Array => Uint16Array.from(word, (_, i) => word.charCodeAt(i));
  const codeLists = new Map<number, { exact: Array<{ word: Uint16Array; concept: number }>; prefixes: Array<{ prefix: Uint16Array; concept: number }> }>();
  const codeListOf = (key: number) => {
    let list = codeLists.get(key);
    if (!list) codeLists.set(key, (list = { exact: [], prefixes: [] }));
    return list;
  };
  for (const [word, concept] of exact) codeListOf(startKey(word)).exact.push({ word: units(word), concept });
  for (const [key, list] of byStart) codeListOf(key).prefixes.push(...list.map(({ prefix, concept }) => ({ prefix: units(prefix), concept })));
  const startsWithAt = (codes: Uint16Array, start: number, end: number, prefix: Uint16Array): boolean => {
    if (end - start < prefix.length) return false;
    for (let k = 0; k < prefix.length; k++) if (codes[start + k] !== prefix[k]) return false;
    return true;
  };
  return {
    names: concepts.map((c) => c.name),
    lookupCodes: (codes, start, end) => {
      const list = codeLists.get(codes[start]! * 0x10000 + (end - start > 1 ? codes[start + 1]! : 0xffff));
      if (!list) return -1;
      for (const { word, concept } of list.exact) if (word.length === end - start && startsWithAt(codes, start, end, word)) return concept;
      if (end - start < 3) return -1;
      for (const { prefix, concept } of list.prefixes) if (startsWithAt(codes, start, end, prefix)) return concept;
      return -1;
    },
    mayStart: (first, second) => firstUnits[first] === 1 && startPairs[pairOf(first, second)] === 1 && starts.has(first * 0x10000 + second),
    lookup: (word) => {
      const key = startKey(word);
      if (!starts.has(key)) return -1;
      const hit = exact.get(word);
      if (hit !== undefined) return hit;
      if (word.length < 3) return -1;
      const list = byStart.get(key);
      if (!list) return -1;
      for (const { prefix, concept } of list) if (word.startsWith(prefix)) return concept;
      return -1;
    },
  };
}
