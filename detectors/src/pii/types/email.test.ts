import t from 'tap';
import { found } from '../../testing/pii.js';
import { emailRule } from './email.js';

const emails = (text: string) => found(text, 'EMAIL');

t.test('addresses as people write them', async (t) => {
  t.same(emails('Мой e-mail: ivan.petrov@example.com, пишите.'), ['ivan.petrov@example.com']);
  t.same(emails('mail me at john+news@mail.co.uk.'), ['john+news@mail.co.uk'], 'plus tag, sentence full stop');
  t.same(emails('<support@company.ru>'), ['support@company.ru']);
  t.same(emails('{"email":"a_b-c%d@sub.domain.io"}'), ['a_b-c%d@sub.domain.io']);
  t.same(emails('email=ivan@yandex.ru&x=1'), ['ivan@yandex.ru']);
  t.same(emails('mailto:ivan@mail.ru'), ['ivan@mail.ru']);
  t.same(emails('иван@почта.рф'), ['иван@почта.рф'], 'internationalised address');
  t.same(emails('x@xn--80ak6aa92e.com'), ['x@xn--80ak6aa92e.com'], 'punycode labels');
  t.same(emails('team@startup.ai and ops@srv.rs'), ['team@startup.ai', 'ops@srv.rs'], 'country domains that are also file extensions elsewhere');
  t.same(emails('see...ivan@mail.ru'), ['ivan@mail.ru']);
  t.same(emails("Write to 'o'brien@example.com'"), ["o'brien@example.com"], 'an apostrophe in the name, quotes around it');
  t.same(emails('Ivan.Petrov@Example.COM'), ['Ivan.Petrov@Example.COM']);
});

t.test('things that are not addresses', async (t) => {
  for (const text of [
    'user@localhost',
    'icon@2x.png',
    'logo@3x.webp',
    'lodash@4.17.21',
    'react@18.2.0',
    '@ivan_petrov',
    'name@domain',
    'support@',
    'ivan.@mail.ru',
    'ivan@mail..ru',
    'ivan@-mail.ru',
    'https://user:secret@example.com/login',
    'https://user@github.com/org/repo.git',
    'a@b.c',
    `${'a'.repeat(65)}@example.com`,
  ]) {
    t.same(emails(text), [], text);
  }
});

t.test('mask: first letter, "***", domain with its TLD kept', async (t) => {
  t.equal(emailRule.mask('ivan.petrov@example.com'), 'i***@example.com');
  t.equal(emailRule.mask('a@b.ru'), 'a***@b.ru');
});
