import t from 'tap';
import { innValid, luhnValid, snilsCheck, snilsValid } from './checksums.js';

t.test('Luhn: known card numbers pass, a changed digit fails', async (t) => {
  for (const card of ['4111111111111111', '5555555555554444', '4012888888881881', '378282246310005', '6011111111111117', '2200000000000004']) {
    t.ok(luhnValid(card), card);
  }
  t.notOk(luhnValid('4111111111111112'));
  t.notOk(luhnValid('1234567812345678'));
  t.notOk(luhnValid(''));
});

t.test('INN: the official check digits of 10 and 12 digits', async (t) => {
  t.ok(innValid('7707083893'), 'Sberbank');
  t.ok(innValid('7736207543'), 'Yandex');
  t.ok(innValid('500100732259'), 'a person');
  t.notOk(innValid('7707083894'), 'last digit changed');
  t.notOk(innValid('500100732258'), 'second check digit wrong');
  t.notOk(innValid('500100732269'), 'first check digit wrong');
  t.notOk(innValid('77070838931'), '11 digits');
});

t.test('SNILS: the check number of the Pension Fund, with its 100/101 rule', async (t) => {
  t.ok(snilsValid('11223344595'), '112-233-445 95');
  t.equal(snilsCheck('112233445'), 95);
  t.notOk(snilsValid('11223344596'));
  // Sum 100 and 101 give 00; above 101 the remainder modulo 101, where a remainder of 100 gives 00.
  const sum = (nine: string) => [...nine].reduce((s, d, i) => s + Number(d) * (9 - i), 0);
  const findWithSum = (target: number) => {
    for (let n = 1002000; n < 999999999; n += 7919) {
      const nine = String(n).padStart(9, '0');
      if (sum(nine) === target) return nine;
    }
    throw new Error(`no number with sum ${target}`);
  };
  t.equal(snilsCheck(findWithSum(100)), 0);
  t.equal(snilsCheck(findWithSum(101)), 0);
  t.equal(snilsCheck(findWithSum(150)), 49);
  t.equal(snilsCheck(findWithSum(99)), 99);
  t.equal(snilsCheck(findWithSum(201)), 0);
  t.notOk(snilsValid('00100199800'), 'numbers up to 001-001-998 carry no check number');
});
