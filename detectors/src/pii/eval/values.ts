// Generators of valid PII values for the eval corpus, in the forms people write them. Each returns the
// text to insert and, where the entity is only part of it ("серия 45 08 № 123456"), the span of the
// entity inside that text.
import type { PiiType } from '@palisade/core';
import { getExampleNumber, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import examples from 'libphonenumber-js/mobile/examples';
import { innValid, luhnValid, snilsCheck } from '../checksums.js';
import { ALNUM, BASE64, BASE64URL, HEX, type Rng } from './rng.js';

export interface Generated {
  text: string;
  /** The entity's span inside `text`; the whole text when absent. */
  start?: number;
  end?: number;
}

const group = (digits: string, sizes: readonly number[], sep: string) => {
  const parts: string[] = [];
  let at = 0;
  for (const size of sizes) {
    parts.push(digits.slice(at, at + size));
    at += size;
  }
  return parts.join(sep);
};

// ---- cards ----

const CARD_PREFIXES = ['4', '4', '4', '51', '52', '53', '54', '55', '2200', '2201', '2202', '2204', '2221', '2720', '6011', '65', '3528', '3589', '6200', '6762'];

export function luhnComplete(body: string): string {
  for (let d = 0; d <= 9; d++) if (luhnValid(body + d)) return body + d;
  throw new Error('unreachable');
}

/** Cards of other lengths than 16 (prefix, length, printed layout): AmEx, Diners, Visa 13/19, UnionPay. */
const OTHER_CARDS: ReadonlyArray<readonly [string, number, readonly number[]]> = [
  ['34', 15, [4, 6, 5]],
  ['37', 15, [4, 6, 5]],
  ['36', 14, [4, 6, 4]],
  ['38', 14, [4, 6, 4]],
  ['4', 13, [4, 4, 5]],
  ['4', 19, [4, 4, 4, 4, 3]],
  ['62', 19, [4, 4, 4, 4, 3]],
];
const LAYOUTS = new Map(OTHER_CARDS.map(([prefix, length, layout]) => [`${prefix[0]}:${length}`, layout]));

export function cardDigits(rng: Rng): string {
  if (rng.chance(0.2)) {
    const [prefix, length] = rng.pick(OTHER_CARDS);
    return luhnComplete(prefix + rng.digits(length - 1 - prefix.length));
  }
  const prefix = rng.pick(CARD_PREFIXES);
  return luhnComplete(prefix + rng.digits(15 - prefix.length));
}

export function formatCard(rng: Rng, digits: string): string {
  const form = rng.int(0, 9);
  const layout = digits.length === 16 ? [4, 4, 4, 4] : (LAYOUTS.get(`${digits[0]}:${digits.length}`) ?? [digits.length]);
  if (form < 5) return group(digits, layout, ' ');
  if (form < 7) return group(digits, layout, '-');
  return digits;
}

// ---- INN, SNILS, passport ----

const INN_REGIONS = Array.from({ length: 92 }, (_, i) => String(i + 1).padStart(2, '0'));

export function inn(rng: Rng, length: 10 | 12): string {
  for (;;) {
    const body = rng.pick(INN_REGIONS) + rng.digits(length - (length === 10 ? 3 : 4));
    for (let d = 0; d <= 9; d++) {
      if (length === 10 && innValid(body + d)) return body + d;
      if (length === 12) for (let e = 0; e <= 9; e++) if (innValid(body + d + e)) return body + d + e;
    }
  }
}

export function snilsDigits(rng: Rng): string {
  for (;;) {
    const nine = rng.digits(9);
    if (Number(nine) <= 1001998) continue;
    return nine + String(snilsCheck(nine)).padStart(2, '0');
  }
}

export function formatSnils(rng: Rng, digits: string): string {
  const form = rng.int(0, 9);
  const head = group(digits.slice(0, 9), [3, 3, 3], form < 8 ? '-' : ' ');
  if (form < 6) return `${head} ${digits.slice(9)}`;
  if (form < 8) return `${head}-${digits.slice(9)}`;
  if (form < 9) return `${head} ${digits.slice(9)}`;
  return digits;
}

const PASSPORT_YEARS = ['97', '98', '99', '00', '01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '12', '13', '14', '15', '16', '17', '18', '19', '20', '21', '22', '23', '24'];

export function passport(rng: Rng, language: 'ru' | 'en'): Generated {
  const region = String(rng.int(1, 99)).padStart(2, '0');
  const year = rng.pick(PASSPORT_YEARS);
  const number = rng.digits(6);
  const forms: Array<[string, string]> =
    language === 'ru'
      ? [
          ['серия ', `${region} ${year} № ${number}`],
          ['серия ', `${region}${year} номер ${number}`],
          ['', `${region} ${year} ${number}`],
          ['', `${region}${year} ${number}`],
          ['серия и номер ', `${region}${year} ${number}`],
          ['', `${region} ${year} №${number}`],
          ['', `${region}${year} № ${number}`],
        ]
      : [
          ['', `${region} ${year} ${number}`],
          ['series ', `${region}${year} number ${number}`],
          ['', `${region}${year} ${number}`],
          ['No. ', `${region}${year} ${number}`],
        ];
  const [label, value] = rng.pick(forms);
  return { text: label + value, start: label.length, end: label.length + value.length };
}

// ---- phones ----

const RU_CODES = ['916', '903', '925', '985', '999', '926', '915', '977', '495', '499', '812', '343', '383', '800', '921', '952', '967'];

function validRu(national: string): boolean {
  return parsePhoneNumberFromString(`+7${national}`)?.isValid() === true;
}

export function russianPhone(rng: Rng): string {
  let national: string;
  // Mostly real ranges; sometimes the made-up area codes of examples ("(123) 456-78-90"), written in a
  // phone format, which the rule also counts.
  const madeUp = rng.chance(0.05);
  do national = madeUp ? rng.digits(10) : rng.pick(RU_CODES) + rng.digits(7);
  while (madeUp ? validRu(national) || /^(\d)\1+$/.test(national) : !validRu(national));
  if (madeUp) return rng.pick([`+7 (${national.slice(0, 3)}) ${national.slice(3, 6)}-${national.slice(6, 8)}-${national.slice(8)}`, `8 (${national.slice(0, 3)}) ${national.slice(3, 6)}-${national.slice(6, 8)}-${national.slice(8)}`, `+7 ${national.slice(0, 3)} ${national.slice(3, 6)} ${national.slice(6, 8)} ${national.slice(8)}`]);
  const [a, b, c, d] = [national.slice(0, 3), national.slice(3, 6), national.slice(6, 8), national.slice(8)];
  return rng.pick([
    `+7 (${a}) ${b}-${c}-${d}`,
    `+7 (${a}) ${b}-${c}-${d}`,
    `+7 ${a} ${b}-${c}-${d}`,
    `+7 ${a} ${b} ${c} ${d}`,
    `+7${national}`,
    `8 (${a}) ${b}-${c}-${d}`,
    `8 (${a}) ${b}-${c}-${d}`,
    `8-${a}-${b}-${c}-${d}`,
    `8${national}`,
    `8 ${a} ${b} ${c} ${d}`,
    `+7-${a}-${b}-${c}-${d}`,
    `8(${a})${b}${c}${d}`,
    `+7(${a})${b}-${c}-${d}`,
  ]);
}

const COUNTRIES: CountryCode[] = ['US', 'GB', 'DE', 'FR', 'KZ', 'BY', 'UA', 'IT', 'ES', 'TR', 'IN', 'CN', 'AE', 'UZ', 'AM', 'GE', 'PL', 'NL', 'IL', 'BR'];

const TRUNK_ZERO = new Set<string>(['DE', 'FR', 'CH', 'GB', 'AT', 'NL', 'BE']);

export function internationalPhone(rng: Rng): string {
  for (;;) {
    const country = rng.pick(COUNTRIES);
    const example = getExampleNumber(country, examples);
    if (!example) continue;
    const national = example.nationalNumber as string;
    // Vary the last digits of the country's example mobile number and keep it only if still valid.
    const varied = national.slice(0, national.length - 4) + rng.digits(4);
    const number = parsePhoneNumberFromString(`+${example.countryCallingCode}${varied}`);
    if (!number?.isValid()) continue;
    const form = rng.int(0, 7);
    if (form <= 2) return number.formatInternational();
    if (form === 3) return number.number as string;
    // "00" instead of "+", and the trunk "(0)" of countries that dial 0 at home ("+41 (0)44 …").
    if (form === 6) return number.formatInternational().replace(/^\+/, '00');
    if (form === 7 && TRUNK_ZERO.has(country)) return number.formatInternational().replace(/^(\+\d+) /, '$1 (0)');
    if (country === 'US') return `+1 (${varied.slice(0, 3)}) ${varied.slice(3, 6)}-${varied.slice(6)}`;
    return number.formatInternational().replace(/ /g, '-');
  }
}

/** US numbers as Americans write them without the country code. */
export function usNationalPhone(rng: Rng): string {
  for (;;) {
    const digits = `${rng.int(2, 9)}${rng.digits(2)}${rng.int(2, 9)}${rng.digits(6)}`;
    if (!parsePhoneNumberFromString(digits, 'US')?.isValid()) continue;
    const [a, b, c] = [digits.slice(0, 3), digits.slice(3, 6), digits.slice(6)];
    return rng.pick([`(${a}) ${b}-${c}`, `${a}-${b}-${c}`, `${a}.${b}.${c}`, `(${a}) ${b}-${c}`]);
  }
}

// ---- e-mail ----

const FIRST = ['ivan', 'maria', 'alexey', 'olga', 'dmitry', 'elena', 'sergey', 'anna', 'john', 'emily', 'michael', 'sarah', 'pavel', 'natalia', 'igor', 'kate', 'a', 'j'];
const LAST = ['petrov', 'ivanova', 'smirnov', 'kuznetsova', 'smith', 'johnson', 'brown', 'sokolov', 'popova', 'lee', 'garcia', 'volkov'];
const DOMAINS = ['gmail.com', 'yandex.ru', 'mail.ru', 'example.com', 'company.ru', 'bank.ru', 'outlook.com', 'corp.example.org', 'mts.ru', 'sber.ru', 'uni.edu', 'startup.io', 'example.co.uk', 'icloud.com', 'rambler.ru', 'list.ru', 'bk.ru', 'proton.me', 'hr.company.com', 'dev.ai'];

export function email(rng: Rng): string {
  const first = rng.pick(FIRST);
  const last = rng.pick(LAST);
  const local = rng.pick([
    `${first}.${last}`,
    `${first}_${last}`,
    `${first}${last}${rng.int(1, 99)}`,
    `${first[0]}.${last}`,
    `${first}`,
    `${first}.${last}+${rng.pick(['news', 'work', 'test'])}`,
    `${last}-${first}`,
    `support`,
    `info`,
    `${first.toUpperCase()}.${last}`,
  ]);
  return `${local}@${rng.pick(DOMAINS)}`;
}

// ---- keys and tokens ----

export function apiKey(rng: Rng): string {
  const kind = rng.int(0, 13);
  switch (kind) {
    case 0:
      return `sk-proj-${rng.chars(BASE64URL, 40)}${rng.chars(ALNUM, 8)}${rng.chars(BASE64URL, rng.int(60, 110))}`;
    case 1:
      return `sk-${rng.chars(ALNUM, 20)}T3BlbkFJ${rng.chars(ALNUM, 20)}`;
    case 2:
      return `sk-ant-api03-${rng.chars(BASE64URL, 93)}AA`;
    case 3:
      return `${rng.pick(['AKIA', 'ASIA'])}${rng.chars('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16)}`;
    case 4:
      return `AIza${rng.chars(BASE64URL, 35)}`;
    case 5:
      return `${rng.pick(['sk', 'rk', 'pk'])}_${rng.pick(['live', 'test'])}_${rng.chars(ALNUM, rng.int(24, 99))}`;
    case 6:
      return `xox${rng.pick(['b', 'p'])}-${rng.digits(12)}-${rng.digits(13)}-${rng.chars(ALNUM, 24)}`;
    case 7:
      return `sk-${rng.chars(HEX, 32)}`;
    case 8:
      return `hf_${rng.chars(ALNUM, 34)}`;
    case 9:
      return `glpat-${rng.chars(BASE64URL, 20)}`;
    case 10:
      return `SG.${rng.chars(BASE64URL, 22)}.${rng.chars(BASE64URL, 43)}`;
    case 11:
      return `${rng.int(100000000, 7999999999)}:AA${rng.chars(BASE64URL, 33)}`;
    case 12:
      return `sk-svcacct-${rng.chars(BASE64URL, 80)}`;
    default:
      return `sk-${rng.chars(ALNUM, 48)}`;
  }
}

export function githubToken(rng: Rng): string {
  if (rng.chance(0.2)) return `github_pat_${rng.chars(ALNUM, 22)}_${rng.chars(ALNUM, 59)}`;
  return `${rng.pick(['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'])}${rng.chars(ALNUM, 36)}`;
}

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

export function jwt(rng: Rng): string {
  const alg = rng.pick(['HS256', 'RS256', 'ES256', 'HS512']);
  const header = rng.chance(0.7) ? { alg, typ: 'JWT' } : { typ: 'JWT', alg, kid: rng.chars(HEX, 8) };
  const now = 1_700_000_000 + rng.int(0, 50_000_000);
  const payload = { sub: String(rng.int(1, 999999)), name: rng.pick(FIRST), iat: now, exp: now + 3600, ...(rng.chance(0.5) ? { role: rng.pick(['admin', 'user']) } : {}) };
  const signature = rng.chars(BASE64URL, alg.startsWith('RS') ? 342 : alg === 'HS512' ? 86 : 43);
  return `${b64url(header)}.${b64url(payload)}.${signature}`;
}

const DB = [
  ['postgresql', 5432],
  ['postgres', 5432],
  ['mysql', 3306],
  ['mongodb', 27017],
  ['mongodb+srv', 0],
  ['redis', 6379],
  ['rediss', 6380],
  ['amqp', 5672],
  ['postgresql+psycopg2', 5432],
  ['mssql', 1433],
  ['clickhouse', 9000],
] as const;

export function databaseUrl(rng: Rng): string {
  const [scheme, port] = rng.pick(DB);
  const user = rng.pick(['app', 'admin', 'postgres', 'root', 'svc_orders', 'readonly', 'u1']);
  const password = rng.pick([rng.chars(ALNUM, rng.int(8, 24)), `${rng.pick(['P@ss', 'S3cr3t', 'qwerty'])}${rng.digits(3)}!`, rng.chars(ALNUM, 12)]);
  const host = rng.pick(['db.example.com', 'localhost', '10.0.3.15', 'pg-primary.internal', 'cluster0.ab1cd.mongodb.net', 'cache.prod.local']);
  const db = rng.pick(['app', 'orders', 'billing', 'users', '0', 'prod']);
  if (rng.chance(0.12)) return `jdbc:postgresql://${host}:5432/${db}?user=${user}&password=${password}`;
  if (rng.chance(0.1)) return `Server=${host},1433;Database=${db};User Id=${user};Password=${password};`;
  const userinfo = scheme.startsWith('redis') && rng.chance(0.4) ? `:${password}` : `${user}:${password}`;
  return `${scheme}://${userinfo}@${host}${port ? `:${port}` : ''}/${db}${rng.chance(0.3) ? '?sslmode=require' : ''}`;
}

export function privateKey(rng: Rng, escaped: boolean): string {
  const label = rng.pick(['RSA PRIVATE KEY', 'PRIVATE KEY', 'EC PRIVATE KEY', 'OPENSSH PRIVATE KEY', 'ENCRYPTED PRIVATE KEY']);
  const lines = Array.from({ length: rng.int(4, 14) }, () => rng.chars(BASE64, 64));
  lines.push(`${rng.chars(BASE64, rng.int(8, 60))}${rng.pick(['', '=', '=='])}`);
  const nl = escaped ? '\\n' : '\n';
  return `-----BEGIN ${label}-----${nl}${lines.join(nl)}${nl}-----END ${label}-----`;
}

/** All the generated types, for reporting. */
export const GENERATED_TYPES: readonly PiiType[] = [
  'CREDIT_CARD', 'INN', 'SNILS', 'PHONE_NUMBER', 'EMAIL', 'PASSPORT_RF', 'API_KEY', 'GITHUB_TOKEN', 'JWT', 'DATABASE_URL', 'PRIVATE_KEY', 'SYSTEM_PROMPT_LEAK',
];
