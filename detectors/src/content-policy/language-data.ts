// Data for language detection: franc-min's ISO 639-3 codes as ISO 639-1, and the alphabets used to
// rule out a trigram guess the letters contradict (franc-min alone calls a plain Russian sentence
// Bulgarian and a Portuguese one Italian).

/** franc-min's languages (82) by ISO 639-3 code → ISO 639-1 where one exists; the rest keep 639-3. */
export const ISO_639_3_TO_1: Readonly<Record<string, string>> = {
  amh: 'am', arb: 'ar', azj: 'az', bel: 'be', ben: 'bn', bos: 'bs', bul: 'bg', ces: 'cs', ckb: 'ku',
  cmn: 'zh', deu: 'de', ell: 'el', eng: 'en', fra: 'fr', fuv: 'ff', guj: 'gu', hau: 'ha', hin: 'hi',
  hrv: 'hr', hun: 'hu', ibo: 'ig', ind: 'id', ita: 'it', jav: 'jv', jpn: 'ja', kan: 'kn', kaz: 'kk',
  kin: 'rw', koi: 'kv', kor: 'ko', lin: 'ln', mal: 'ml', mar: 'mr', mya: 'my', nld: 'nl', npi: 'ne',
  nya: 'ny', pan: 'pa', pbu: 'ps', pes: 'fa', plt: 'mg', pol: 'pl', por: 'pt', qug: 'qu', ron: 'ro',
  run: 'rn', rus: 'ru', sin: 'si', som: 'so', spa: 'es', srp: 'sr', sun: 'su', swe: 'sv', swh: 'sw',
  tam: 'ta', tel: 'te', tgl: 'tl', tha: 'th', tur: 'tr', ukr: 'uk', urd: 'ur', uzn: 'uz', vie: 'vi',
  yor: 'yo', zlm: 'ms', zul: 'zu', zyb: 'za',
  // No ISO 639-1 code: bho, ceb, hms, hnj, ilo, mad, mag, mai, skr.
};

export const toIso6391 = (code: string): string => ISO_639_3_TO_1[code] ?? code;

const ISO_639_1_TO_3: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(ISO_639_3_TO_1).map(([three, one]) => [one, three]));

/** A code as franc-min names it: ISO 639-1 codes mapped back to 639-3; 639-3 codes kept. */
export const toFrancCode = (code: string): string => ISO_639_1_TO_3[code] ?? code;

const LATIN_BASE = 'abcdefghijklmnopqrstuvwxyz';
const CYRILLIC_BASE = 'абвгдежзийклмнопрстуфхцчшщъыьэюя';

/**
 * The lower-case letters each language writes, for the Latin and Cyrillic languages franc-min knows
 * and where a letter tells languages apart. A language without an entry is never ruled out.
 */
export const ALPHABETS: Readonly<Record<'latin' | 'cyrillic', Readonly<Record<string, string>>>> = {
  latin: {
    eng: LATIN_BASE,
    deu: `${LATIN_BASE}äöüß`,
    fra: `${LATIN_BASE}àâæçéèêëîïôœùûüÿ`,
    spa: `${LATIN_BASE}áéíñóúü`,
    ita: `${LATIN_BASE}àèéìíîòóùú`,
    por: `${LATIN_BASE}áâãàçéêíóôõú`,
    nld: `${LATIN_BASE}áéëèïíóöü`,
    pol: `${LATIN_BASE}ąćęłńóśźż`,
    ces: `${LATIN_BASE}áčďéěíňóřšťúůýž`,
    ron: `${LATIN_BASE}ăâîșțşţ`,
    tur: `${LATIN_BASE}âçğıîöşû`,
    hun: `${LATIN_BASE}áéíóöőúüű`,
    swe: `${LATIN_BASE}åäöé`,
    hrv: `${LATIN_BASE}čćđšž`,
    bos: `${LATIN_BASE}čćđšž`,
    srp: `${LATIN_BASE}čćđšž`,
    ind: LATIN_BASE,
    zlm: LATIN_BASE,
  },
  cyrillic: {
    rus: `${CYRILLIC_BASE}ё`,
    ukr: 'абвгґдеєжзиіїйклмнопрстуфхцчшщьюя',
    bel: 'абвгдеёжзійклмнопрстуўфхцчшыьэюя',
    bul: 'абвгдежзийклмнопрстуфхцчшщъьюяѝ',
    srp: 'абвгдђежзијклљмнњопрстћуфхцчџш',
    bos: 'абвгдђежзијклљмнњопрстћуфхцчџш',
    kaz: `${CYRILLIC_BASE}ёәғқңөұүһі`,
    uzn: 'абвгдеёжзийклмнопрстуфхцчшъэюяўқғҳ',
    koi: `${CYRILLIC_BASE}ёіӧ`,
  },
};

/**
 * Languages that franc-min's trigrams confuse on short texts and that the alphabet check cannot always
 * separate (a short Russian sentence without ё, ы, э or ъ is spelt with letters Ukrainian has too).
 * When the best guess is in a group, the group's members the letters do not rule out are candidates.
 */
export const CONFUSABLE_LANGUAGES: readonly (readonly string[])[] = [
  ['rus', 'ukr', 'bel', 'bul'],
  ['srp', 'bos', 'hrv'],
  ['ind', 'zlm'],
];
