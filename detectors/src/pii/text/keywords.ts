// Context words: the few words before a number say what it is. "ИНН 7707083893" is a taxpayer number,
// "тел. 9161234567" a phone, "заказ № 7707083893" an order. Rules read the context as flags and adjust
// their score (Presidio's context enhancement, with Russian and English word stems).

export const Ctx = {
  CREDIT_CARD: 1,
  INN: 2,
  SNILS: 4,
  PHONE_NUMBER: 8,
  PASSPORT_RF: 16,
  /** Words naming another kind of number: order, invoice, ISBN, version, KPP, OGRN, timestamp… */
  NEGATIVE: 32,
} as const;
export type CtxKind = keyof typeof Ctx;
/** Flags of the words found: a bitwise OR of Ctx values. */
export type CtxFlags = number;

/** All positive kinds: a number named as one kind is not another. */
export const POSITIVE_CTX = Ctx.CREDIT_CARD | Ctx.INN | Ctx.SNILS | Ctx.PHONE_NUMBER | Ctx.PASSPORT_RF;

interface Stems {
  /** Words that begin with one of these (long enough not to begin ordinary words). */
  prefixes: readonly string[];
  /** Whole words only (short ones: "инн", "id", "cc"). */
  words: readonly string[];
}

const STEMS: Readonly<Record<CtxKind, Stems>> = {
  CREDIT_CARD: {
    prefixes: ['card', 'карт', 'visa', 'виза', 'визы', 'master', 'мастеркард', 'maestro', 'маэстро', 'amex', 'unionpay', 'кредитк', 'дебетов', 'debit', 'credit', 'кредитн'],
    words: ['pan', 'cc', 'мир', 'mir', 'jcb', 'ccnum', 'cardnumber'],
  },
  INN: {
    prefixes: ['налогоплат', 'taxpayer'],
    words: ['инн', 'inn', 'tin', 'itn', 'tax', 'taxid'],
  },
  SNILS: {
    prefixes: ['снилс', 'snils', 'страхов', 'пенсион'],
    words: [],
  },
  PHONE_NUMBER: {
    prefixes: ['тел', 'phone', 'моб', 'mobile', 'cell', 'звон', 'позвон', 'call', 'fax', 'факс', 'whatsapp', 'ватсап', 'вотсап', 'viber', 'вайбер', 'telegram', 'телеграм', 'contact', 'контакт', 'смс'],
    words: ['tel', 'ph', 'mob', 'sms', 'msisdn'],
  },
  PASSPORT_RF: {
    prefixes: ['паспорт', 'passport', 'серия', 'серии', 'выдан', 'удостоверени'],
    // "DOC_NUMBER=", "doc_no:", "pasp_num": the keys of configs and exports.
    words: ['doc', 'docnum', 'docno', 'pasp', 'psp'],
  },
  NEGATIVE: {
    prefixes: [
      'заказ', 'order', 'invoice', 'счет', 'счёт', 'накладн', 'waybill', 'трек', 'track', 'ticket', 'тикет', 'заявк',
      'обращени', 'артикул', 'isbn', 'issn', 'верси', 'version', 'build', 'сборк', 'commit', 'коммит', 'хеш', 'хэш', 'hash',
      'uuid', 'guid', 'договор', 'contract', 'огрн', 'ogrn', 'окпо', 'okpo', 'окато', 'октмо', 'account', 'серийн',
      'serial', 'imei', 'полис', 'policy', 'timestamp', 'epoch', 'amount', 'сумм', 'руб', 'price', 'цена', 'стоимост',
      'итого', 'total', 'transaction', 'транзакц', 'reference', 'barcode', 'штрихкод', 'shipment', 'отправлени',
      'parcel', 'посылк', 'booking', 'бронировани', 'request', 'session', 'сесси', 'ean', 'корреспондент',
    ],
    words: ['id', 'ид', 'ip', 'ts', 'pid', 'uid', 'gid', 'sku', 'kpp', 'кпп', 'бик', 'bik', 'inv', 'ord', 'ref', 'txn', 'req', 'rrn', 'кс', 'рс', 'isbn'],
  },
};

const KINDS = Object.keys(STEMS) as CtxKind[];

/** Flags for one lower-cased word. */
export function wordFlags(word: string): CtxFlags {
  let flags = 0;
  for (const kind of KINDS) {
    const stems = STEMS[kind];
    if (stems.words.includes(word) || stems.prefixes.some((p) => word.startsWith(p))) flags |= Ctx[kind];
  }
  return flags;
}

/** How far back context words are looked for. */
const LOOKBACK_CHARS = 48;
const LOOKBACK_WORDS = 5;
/** Another number (two digits or more) between a word and the candidate belongs to the word instead. */
const BLOCKING_DIGITS = 2;

const isLetterCode = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 0x400 && c <= 0x4ff);
const isDigitCode = (c: number) => c >= 48 && c <= 57;

/**
 * The flags of the words just before `start`: at most five words within 48 characters, stopping at
 * another number (so in "ИНН 7707083893, тел. 9161234567" the phone sees "тел" and not "ИНН").
 */
export function contextBefore(text: string, start: number, cache?: Map<string, CtxFlags>): CtxFlags {
  let flags = 0;
  let words = 0;
  let i = start - 1;
  const limit = Math.max(0, start - LOOKBACK_CHARS);
  while (i >= limit && words < LOOKBACK_WORDS) {
    const c = text.charCodeAt(i);
    if (isLetterCode(c)) {
      const end = i + 1;
      while (i >= 0 && isLetterCode(text.charCodeAt(i))) i--;
      // The cache is keyed by the word as written, so a repeated word costs one lookup.
      const word = text.slice(i + 1, end);
      let found = cache?.get(word);
      if (found === undefined) {
        found = wordFlags(word.toLowerCase());
        cache?.set(word, found);
      }
      flags |= found;
      words++;
      // camelCase and snake_case keys ("phoneNumber", "passport_series") split into their words above.
      continue;
    }
    if (isDigitCode(c)) {
      const end = i + 1;
      while (i >= 0 && isDigitCode(text.charCodeAt(i))) i--;
      if (end - (i + 1) >= BLOCKING_DIGITS) break;
      continue;
    }
    i--;
  }
  return flags;
}

/** Context read by a rule for its own kind. */
export interface ContextVerdict {
  /** A word naming this kind. */
  own: boolean;
  /** A word naming another kind of personal number and none naming this one. */
  other: boolean;
  /** A word naming an unrelated number (order, invoice…) and none naming a personal one. */
  negative: boolean;
}

export function verdict(flags: CtxFlags, kind: Exclude<CtxKind, 'NEGATIVE'>): ContextVerdict {
  const own = (flags & Ctx[kind]) !== 0;
  const other = !own && (flags & POSITIVE_CTX & ~Ctx[kind]) !== 0;
  const negative = !own && !other && (flags & Ctx.NEGATIVE) !== 0;
  return { own, other, negative };
}
