// A small multilingual lexicon of the concepts injections are made of (ignore / previous / instructions /
// reveal / system…) in English, Russian, German, French and Spanish. Words of every language map to the
// same concept tokens, and concept n-grams ("REVEAL ALL SYSTEM INSTRUCTION") become features. That is
// how an attack phrased in German or Russian borrows what the model learnt from English rows (most of
// the attacks it is trained on) and the other way round, and how a paraphrase with new words but the
// same structure still looks like an attack. Words that are prefixes of common unrelated words in some
// language ("regel" of "regelmäßig", "intern" of "international", "caché" beside "cache") are listed as
// whole words, not as prefixes.

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
    prefixes: ['ignor', 'disregard', 'forget', 'forgot', 'overrid', 'bypass', 'neglect', 'abandon', 'игнор', 'проигнор', 'забудь', 'забуд', 'забыв', 'забыть', 'пренебр', 'отбрось', 'отброс', 'отмен', 'обойд', 'обход', 'vergiss', 'vergess', 'missacht', 'übergeh', 'überspring', 'oubli', 'néglig', 'contourn', 'olvid', 'omit', 'descart'],
    words: ['skip', 'drop', 'cancel'],
  },
  {
    name: 'PREVIOUS',
    prefixes: ['previous', 'prior', 'earlier', 'preceding', 'former', 'original', 'initial', 'предыдущ', 'прошл', 'ранее', 'ранн', 'вышеуказ', 'вышеизлож', 'прежн', 'исходн', 'изначальн', 'первоначальн', 'начальн', 'vorherig', 'vorig', 'bisherig', 'obig', 'ursprünglich', 'vorangegang', 'vorstehend', 'früher', 'précédent', 'antérieur', 'anterior', 'previo', 'previa', 'inicial'],
    words: ['above', 'before', 'выше', 'старые', 'старых', 'oben', 'davor', 'zuvor', 'dessus', 'avant', 'arriba', 'antes'],
  },
  {
    name: 'INSTRUCTION',
    prefixes: ['instruct', 'rule', 'directive', 'guideline', 'prompt', 'command', 'polic', 'restrict', 'constrain', 'programming', 'configur', 'setting', 'инструкц', 'правил', 'директив', 'указани', 'промпт', 'команд', 'приказ', 'ограничен', 'настройк', 'конфигурац', 'установк', 'политик', 'запрет', 'anweisung', 'richtlinie', 'vorgabe', 'befehl', 'instrukt', 'anordnung', 'einschränkung', 'beschränkung', 'konfigur', 'einstellung', 'règle', 'consigne', 'instrucci', 'directriz', 'directric', 'restricci', 'indicacion', 'configuraci'],
    words: ['orders', 'guidance', 'regel', 'regeln', 'auftrag', 'aufträge', 'aufträgen', 'ordres', 'orden', 'órdenes', 'regla', 'reglas', 'norma', 'normas'],
  },
  {
    name: 'SYSTEM',
    prefixes: ['system', 'hidden', 'secret', 'internal', 'confidential', 'developer', 'private', 'backend', 'систем', 'скрыт', 'секрет', 'внутренн', 'конфиденц', 'служебн', 'разработчик', 'приватн', 'тайн', 'закрыт', 'systèm', 'sistem', 'geheim', 'versteck', 'vertraulich', 'entwickler', 'confidenti', 'confidencial', 'développeur', 'desarrollador', 'ocult', 'secrèt'],
    words: ['intern', 'interne', 'internen', 'interner', 'internes', 'interno', 'interna', 'internos', 'internas', 'caché', 'cachée', 'cachés', 'cachées'],
  },
  {
    name: 'REVEAL',
    prefixes: ['reveal', 'show', 'print', 'repeat', 'output', 'display', 'leak', 'disclos', 'recit', 'dump', 'expos', 'reproduc', 'spell', 'divulg', 'покаж', 'покази', 'выведи', 'вывест', 'выведит', 'вывод', 'раскр', 'повтор', 'напиш', 'расскаж', 'скажи', 'скажит', 'сообщ', 'перечисл', 'процитир', 'цитир', 'воспроизв', 'распечат', 'подели', 'озвуч', 'продемонстр', 'отобраз', 'опубликуй', 'выдай', 'zeig', 'wiederhol', 'verrat', 'enthüll', 'schreib', 'montr', 'affich', 'révél', 'répét', 'répèt', 'imprim', 'écri', 'muestr', 'muéstr', 'mostr', 'revela', 'revél', 'repit', 'repít', 'escrib', 'compart'],
    words: ['share', 'tell', 'give', 'list', 'write', 'дай', 'дайте', 'gib', 'gebe', 'sag', 'sage', 'sagen', 'nenne', 'teile', 'dis', 'dites', 'donne', 'donnez', 'liste', 'dime', 'dinos', 'dame', 'danos', 'repetir'],
  },
  {
    name: 'CREDENTIAL',
    prefixes: ['password', 'passcode', 'passphrase', 'credential', 'token', 'apikey', 'парол', 'ключ', 'токен', 'учётн', 'учетн', 'кодов', 'passwort', 'kennwort', 'schlüssel', 'zugangsdat', 'contraseñ'],
    words: ['key', 'keys', 'pin', 'clé', 'clef', 'clave', 'claves'],
  },
  {
    name: 'ALL',
    prefixes: ['entire', 'verbatim', 'exact', 'complete', 'целик', 'дословн', 'полност', 'полн', 'кажд', 'точн', 'gesamt', 'vollständig', 'wörtlich', 'wortwörtlich', 'intégral', 'íntegr'],
    words: ['all', 'every', 'everything', 'full', 'whole', 'each', 'все', 'всё', 'весь', 'вся', 'всю', 'всех', 'alle', 'alles', 'allen', 'aller', 'tout', 'tous', 'toute', 'toutes', 'todo', 'todos', 'toda', 'todas'],
  },
  {
    name: 'PERSONA',
    prefixes: ['pretend', 'roleplay', 'persona', 'character', 'simulat', 'imperson', 'притвор', 'представь', 'вообраз', 'изобраз', 'сыграй', 'играй', 'персонаж', 'роль', 'роли', 'personnage', 'personaje', 'charakter', 'incarn', 'simuli', 'simule', 'finge', 'fingi', 'semblant'],
    words: ['act', 'role', 'rolle', 'rollen', 'rôle', 'rol'],
  },
  {
    name: 'UNRESTRICTED',
    prefixes: ['unrestrict', 'unfilter', 'uncensor', 'unlimit', 'amoral', 'unethic', 'jailbr', 'unbound', 'lawless', 'неогранич', 'нецензур', 'аморальн', 'безнравств', 'джейлбр', 'взлом', 'беспредел', 'uneingeschränkt', 'unzensiert', 'unbeschränkt', 'ungefiltert', 'unethisch', 'grenzenlos', 'illimit', 'débrid', 'ilimitad', 'malvad'],
    words: ['dan', 'freedom', 'unchained', 'evil', 'böse'],
  },
  {
    name: 'SAFETY',
    prefixes: ['refus', 'declin', 'apolog', 'warning', 'disclaim', 'moral', 'ethic', 'censor', 'filter', 'safety', 'safeguard', 'guardrail', 'отказ', 'извин', 'предупрежд', 'морал', 'этик', 'этич', 'цензур', 'фильтр', 'безопасн', 'модерац', 'sicherheit', 'ethisch', 'ethik', 'zensur', 'ablehn', 'verweiger', 'warnung', 'entschuldig', 'sécurit', 'éthi', 'censur', 'avertiss', 'segurid', 'étic', 'rechaz', 'advertenc', 'disculp'],
  },
  {
    name: 'NEW',
    prefixes: ['instead', 'updated', 'henceforth', 'теперь', 'отныне', 'вместо', 'обновл', 'stattdessen', 'fortan', 'désormais', 'dorénavant'],
    words: ['new', 'now', 'новые', 'новая', 'новое', 'новый', 'новых', 'neu', 'neue', 'neuen', 'neuer', 'neues', 'jetzt', 'nun', 'nouveau', 'nouvelle', 'nouvelles', 'nouveaux', 'maintenant', 'nuevo', 'nueva', 'nuevas', 'nuevos', 'ahora'],
  },
  {
    name: 'RESPOND',
    prefixes: ['respon', 'answer', 'repl', 'ответ', 'отвеч', 'antwort', 'beantwort', 'répond', 'répons', 'contesta'],
  },
  {
    name: 'BEGIN',
    prefixes: ['begin', 'start', 'prefix', 'начни', 'начина', 'начать', 'начнит', 'beginn', 'commenc', 'comienz', 'empiez', 'empiec', 'comenz'],
  },
  {
    name: 'NEGATE',
    prefixes: ['never', 'никогда', 'niemals'],
    words: ['not', "don't", 'dont', 'no', 'without', 'не', 'нет', 'без', 'ни', 'nie', 'nicht', 'kein', 'keine', 'keinen', 'keiner', 'ohne', 'ne', 'pas', 'jamais', 'sans', 'aucun', 'aucune', 'nunca', 'jamás', 'sin', 'ningún', 'ninguna', 'ninguno'],
  },
  {
    name: 'YOUR',
    prefixes: ['yourself', 'твой', 'твоя', 'твои', 'твоё', 'твое', 'твоих', 'твоим', 'свой', 'своя', 'свои', 'своё', 'свое', 'своих', 'своим', 'ваш'],
    words: ['your', 'you', 'ты', 'тебе', 'тебя', 'вы', 'вам', 'вас', 'du', 'dein', 'deine', 'deinen', 'deiner', 'deines', 'deinem', 'dir', 'dich', 'tu', 'tú', 'ton', 'ta', 'tes', 'toi', 'te', 'vous', 'votre', 'vos', 'tus', 'ti', 'usted', 'ustedes'],
  },
  {
    name: 'MODE',
    prefixes: ['mode', 'режим', 'modus'],
    words: ['modo', 'modos'],
  },
];

export interface ThreatConceptLexicon {
  /** The concept index of a lower-case word, or -1. */
  lookup(word: string): number;
  /** lookup() of the word in code units [start, end) of `codes`, without cutting it out as a string. */
  lookupCodes(codes: Uint16Array, start: number, end: number): number;
  readonly names: readonly string[];
}

/** The first two code units of a word as one number (a one-unit word has 0xffff second). */
function startKey(word: string): number {
  return word.charCodeAt(0) * 0x10000 + (word.length > 1 ? word.charCodeAt(1) : 0xffff);
}

/**
 * Indexes the lexicon by the first two code units of each word and prefix, so a lookup tries only a
 * few. Most words of a prompt start like no word or prefix of the lexicon, or cannot match the ones
 * they start like, and are ruled out by a few array reads, without hashing the word for a map.
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
  // The same lexicon by start as code units, for lookupCodes: the exact words (one per word, as the
  // map holds them) and the prefixes, longest first, with the word lengths that can match at all (an
  // exact word's length, a prefix's length or more) and the third code units of its prefixes. Most
  // words of a prompt that start like some entry cannot match it by their length ("and", "in", "die")
  // or their third code unit, and are ruled out by those before any comparison.
  interface StartEntry {
    exact: Array<{ word: Uint16Array; concept: number }>;
    prefixes: Array<{ prefix: Uint16Array; concept: number }>;
    /** Bit n set: an exact word of n code units (n < 31). */
    exactLengths: number;
    /** An exact word of 31 code units or more. */
    longExact: boolean;
    /** The shortest prefix (prefixes match only words of 3 code units or more). */
    shortestPrefix: number;
    /** Bit (u & 31) set for the third code unit u of each prefix. */
    thirdUnits: number;
  }
  const units = (word: string): Uint16Array => Uint16Array.from(word, (_, i) => word.charCodeAt(i));
  const entryByKey = new Map<number, StartEntry>();
  const entryOf = (key: number): StartEntry => {
    let entry = entryByKey.get(key);
    if (!entry) {
      entry = { exact: [], prefixes: [], exactLengths: 0, longExact: false, shortestPrefix: Number.POSITIVE_INFINITY, thirdUnits: 0 };
      entryByKey.set(key, entry);
    }
    return entry;
  };
  for (const [word, concept] of exact) {
    const entry = entryOf(startKey(word));
    entry.exact.push({ word: units(word), concept });
    if (word.length < 31) entry.exactLengths |= 1 << word.length;
    else entry.longExact = true;
  }
  for (const [key, list] of byStart) {
    const entry = entryOf(key);
    entry.prefixes.push(...list.map(({ prefix, concept }) => ({ prefix: units(prefix), concept })));
    for (const { prefix } of list) {
      entry.shortestPrefix = Math.min(entry.shortestPrefix, prefix.length);
      // A prefix of two code units would match every word of its start: no third unit rules one out.
      entry.thirdUnits |= prefix.length > 2 ? 1 << (prefix.charCodeAt(2) & 31) : -1;
    }
  }
  // The entries in one dense table indexed by both code units of their start: each code unit that
  // starts an entry (as its first or its second unit, 0xffff for a one-unit word) gets a small number
  // (0: none), and the entry of (first, second) sits at first number × width + second number. Two
  // array reads rule out most words, with no hashing and no map lookup.
  const unitNumbers = new Uint16Array(0x10000);
  const startUnits = [...new Set([...entryByKey.keys()].flatMap((key) => [Math.floor(key / 0x10000), key % 0x10000]))];
  startUnits.forEach((unit, k) => (unitNumbers[unit] = k + 1));
  const width = startUnits.length + 1;
  const entries = [...entryByKey.values()];
  // Index + 1 of the entry of each start (0: none).
  const entryAt = new Int32Array(width * width);
  [...entryByKey.keys()].forEach((key, index) => (entryAt[unitNumbers[Math.floor(key / 0x10000)]! * width + unitNumbers[key % 0x10000]!] = index + 1));
  const startsWithAt = (codes: Uint16Array, start: number, end: number, prefix: Uint16Array): boolean => {
    if (end - start < prefix.length) return false;
    for (let k = 0; k < prefix.length; k++) if (codes[start + k] !== prefix[k]) return false;
    return true;
  };
  return {
    names: concepts.map((c) => c.name),
    lookupCodes: (codes, start, end) => {
      const length = end - start;
      const first = unitNumbers[codes[start]!]!;
      if (first === 0) return -1;
      const index = entryAt[first * width + unitNumbers[length > 1 ? codes[start + 1]! : 0xffff]!]! - 1;
      if (index < 0) return -1;
      const entry = entries[index]!;
      if (length < 31 ? ((entry.exactLengths >>> length) & 1) === 1 : entry.longExact) {
        for (const { word, concept } of entry.exact) if (word.length === length && startsWithAt(codes, start, end, word)) return concept;
      }
      if (length < 3 || length < entry.shortestPrefix || ((entry.thirdUnits >>> (codes[start + 2]! & 31)) & 1) === 0) return -1;
      for (const { prefix, concept } of entry.prefixes) if (startsWithAt(codes, start, end, prefix)) return concept;
      return -1;
    },
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
