// Text that looks like PII and is not, for the eval corpus: numbers failing each checksum, identifiers
// of other kinds (orders, dates, IPs, UUIDs, versions, SHAs, ISBNs, accounts), base64 that is not a JWT,
// "sk-" inside words, placeholders and public material.
import { innValid, luhnValid, snilsValid } from '../checksums.js';
import { cardDigits, inn, snilsDigits } from './values.js';
import { ALNUM, BASE64, BASE64URL, HEX, type Rng } from './rng.js';

/** The same digits with the last one changed, so the check fails. */
function breakCheck(digits: string, valid: (d: string) => boolean): string {
  for (let d = 1; d <= 9; d++) {
    const changed = digits.slice(0, -1) + ((Number(digits.at(-1)) + d) % 10);
    if (!valid(changed)) return changed;
  }
  throw new Error('unreachable');
}

const date = (rng: Rng) => {
  const [y, m, d] = [rng.int(1990, 2026), String(rng.int(1, 12)).padStart(2, '0'), String(rng.int(1, 28)).padStart(2, '0')];
  return rng.pick([`${d}.${m}.${y}`, `${y}-${m}-${d}`, `${d}/${m}/${y}`, `${y}-${m}-${d}T${String(rng.int(0, 23)).padStart(2, '0')}:${rng.int(10, 59)}:${rng.int(10, 59)}Z`, `${y}-${m}-${d} ${rng.int(10, 23)}:${rng.int(10, 59)}`]);
};
const ip = (rng: Rng) => `${rng.int(1, 223)}.${rng.int(0, 255)}.${rng.int(0, 255)}.${rng.int(1, 254)}`;
const uuid = (rng: Rng) => `${rng.chars(HEX, 8)}-${rng.chars(HEX, 4)}-4${rng.chars(HEX, 3)}-a${rng.chars(HEX, 3)}-${rng.chars(HEX, 12)}`;
const digitUuidTail = (rng: Rng) => `${rng.chars(HEX, 8)}-${rng.chars(HEX, 4)}-4${rng.chars(HEX, 3)}-a${rng.chars(HEX, 3)}-${rng.digits(12)}`;

/** Each decoy is a function producing a phrase (with its own context words where people write them). */
export const DECOYS: ReadonlyArray<(rng: Rng, language: 'ru' | 'en') => string> = [
  // Numbers failing each checksum, in the context of their type.
  (rng, l) => `${l === 'ru' ? 'карта' : 'card'} ${breakCheck(cardDigits(rng), luhnValid).replace(/(\d{4})(?=\d)/g, '$1 ')}`,
  (rng) => breakCheck(cardDigits(rng), luhnValid),
  (rng, l) => `${l === 'ru' ? 'ИНН' : 'INN'} ${breakCheck(inn(rng, rng.pick([10, 12] as const)), innValid)}`,
  (rng) => breakCheck(inn(rng, 10), innValid),
  (rng, l) => `${l === 'ru' ? 'СНИЛС' : 'SNILS'} ${breakCheck(snilsDigits(rng), snilsValid).replace(/^(\d{3})(\d{3})(\d{3})(\d{2})$/, '$1-$2-$3 $4')}`,
  (rng) => breakCheck(snilsDigits(rng), snilsValid).replace(/^(\d{3})(\d{3})(\d{3})(\d{2})$/, '$1-$2-$3 $4'),
  // Other identifiers.
  (rng, l) => `${l === 'ru' ? rng.pick(['заказ №', 'номер заказа', 'заявка №', 'трек-номер']) : rng.pick(['order #', 'order no.', 'ticket', 'tracking number'])} ${rng.digits(rng.pick([6, 8, 10, 12, 14, 16]))}`,
  (rng) => date(rng),
  (rng) => `${rng.int(0, 23)}:${rng.int(10, 59)}:${rng.int(10, 59)}`,
  (rng) => ip(rng),
  (rng) => `${ip(rng)}:${rng.int(1024, 65535)}`,
  (rng) => uuid(rng),
  (rng) => digitUuidTail(rng),
  (rng) => `v${rng.int(0, 12)}.${rng.int(0, 40)}.${rng.int(0, 99)}`,
  (rng) => `${rng.int(1, 30)}.${rng.int(0, 20)}.${rng.int(0, 300)}.${rng.int(0, 9999)}`,
  (rng) => rng.chars(HEX, 40),
  (rng) => `commit ${rng.chars(HEX, 7)}`,
  (rng) => `sha256:${rng.chars(HEX, 64)}`,
  (rng) => `ISBN ${rng.pick(['978-5-17-118366-3', '978-0-306-40615-7', '0-306-40615-2', '978-5-389-07435-4', '9785171183663'])}`,
  (rng, l) => (l === 'ru' ? `${rng.int(1, 999)} ${rng.int(100, 999)} ${rng.int(100, 999)},${rng.int(10, 99)} руб.` : `$${rng.int(1, 999)},${rng.int(100, 999)},${rng.int(100, 999)}.${rng.int(10, 99)}`),
  (rng, l) => `${l === 'ru' ? 'р/с' : 'account'} 40817810${rng.digits(12)}`,
  (rng, l) => `${l === 'ru' ? 'БИК' : 'BIC'} 04${rng.digits(7)}`,
  (rng, l) => `${l === 'ru' ? 'КПП' : 'KPP'} ${rng.digits(9)}`,
  (rng, l) => `${l === 'ru' ? 'ОГРН' : 'OGRN'} 1${rng.digits(12)}`,
  (rng) => `${rng.int(100000, 199999)}`,
  (rng) => `ts=${rng.int(1_600_000_000, 1_760_000_000)}${rng.chance(0.5) ? rng.digits(3) : ''}`,
  (rng) => `#${rng.chars('0123456789abcdef', 6)}`,
  (rng) => `RA${rng.digits(9)}RU`,
  (rng) => `port ${rng.int(1024, 65535)}`,
  (rng, l) => `${l === 'ru' ? 'артикул' : 'SKU'} ${rng.digits(rng.pick([8, 10, 13]))}`,
  (rng) => rng.pick(['+7 (000) 000-00-00', '8 (111) 111-11-11', '+7 999 999 99 99 99 99']),
  (rng) => `${rng.digits(3)}-${rng.digits(2)}-${rng.digits(2)}`,
  // Base64 that is not a JWT, and dotted things.
  () => Buffer.from(JSON.stringify({ user: 'ivan', role: 'admin' })).toString('base64url'),
  (rng) => `${Buffer.from(JSON.stringify({ alg: 'HS256' })).toString('base64url')}.${rng.chars(BASE64URL, 30)}.${rng.chars(BASE64URL, 20)}`,
  (rng) => `${rng.chars(BASE64, 40)}==`,
  (rng) => `data:image/png;base64,${rng.chars(BASE64, 60)}`,
  (rng) => `${rng.chars(ALNUM, 10)}.${rng.chars(ALNUM, 12)}.${rng.chars(ALNUM, 8)}`,
  // "sk-" inside words, placeholders, short keys.
  (rng) => rng.pick(['task-force', 'risk-based-approach', 'desk-booking-service-2024', 'ask-me-anything', 'sk-learn', 'mask-rcnn-resnet50-fpn', 'kiosk-mode-enabled-v2-final', 'husk-of-the-old-system']),
  (rng) => rng.pick(['sk-your-api-key-here', 'sk-...', 'sk-XXXXXXXXXXXXXXXXXXXXXXXX', 'AKIAXXXXXXXXXXXXXXXX', 'ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx', 'sk_test_...']),
  (rng) => `ghp_${rng.chars(ALNUM, 12)}`,
  (rng) => `gh-pages-${rng.digits(4)}`,
  (rng) => `AIza${rng.chars(ALNUM, 10)}`,
  (rng) => `api_key: \${${rng.pick(['OPENAI_API_KEY', 'API_KEY'])}}`,
  (rng) => `token_count=${rng.int(100, 99999)}`,
  (rng) => `max_tokens: ${rng.int(100, 8000)}`,
  // Addresses that are not e-mail, URLs without credentials, public material.
  (rng) => rng.pick(['user@localhost', 'icon@2x.png', 'logo@3x.webp', 'lodash@4.17.21', 'react@18.2.0', '@ivan_petrov', 'name@domain', 'support@', '@types/node']),
  (rng) => rng.pick(['postgres://localhost:5432/app', 'https://user@github.com/org/repo.git', 'redis://cache:6379/0', 'mongodb://db.example.com:27017/app', 'postgresql://app:${DB_PASSWORD}@db:5432/app', 'mysql://root:<password>@localhost/app', 'https://admin:secret@example.com/login']),
  (rng) => `-----BEGIN PUBLIC KEY-----\n${rng.chars(BASE64, 64)}\n${rng.chars(BASE64, 40)}\n-----END PUBLIC KEY-----`,
  (rng) => `-----BEGIN CERTIFICATE-----\n${rng.chars(BASE64, 64)}\n${rng.chars(BASE64, 30)}=\n-----END CERTIFICATE-----`,
  (rng, l) => (l === 'ru' ? `паспорт будет готов ${date(rng)}` : `passport renewal takes ${rng.int(2, 8)} weeks`),
];

export function decoy(rng: Rng, language: 'ru' | 'en'): string {
  return rng.pick(DECOYS)(rng, language);
}
