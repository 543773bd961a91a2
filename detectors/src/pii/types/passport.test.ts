import t from 'tap';
import { found } from '../../testing/pii.js';
import { passportRule } from './passport.js';

const passports = (text: string) => found(text, 'PASSPORT_RF', { language: 'ru' });

t.test('a passport named only by its key or by its table column', async (t) => {
  t.same(passports('DOC_NUMBER=4508123456'), ['4508123456'], 'key=value');
  t.same(passports('passport_no: 4508 123456'), ['4508 123456']);
  t.same(passports('{"pasp_num": "45 08 123456"}'), ['45 08 123456']);
  t.same(passports('name,passport,phone\nIvan Petrov,4508 123456,+7 916 123-45-67\nOlga Ivanova,4510123456,'), ['4508 123456', '4510123456'], 'CSV header column');
  t.same(passports('ФИО;Паспорт;Город\nИванов И.И.;45 08 123456;Москва'), ['45 08 123456'], 'semicolons, Cyrillic header');
  t.same(passports('id,amount\n1,4508123456'), [], 'a column named for something else');
  t.same(passports('name,passport\nIvan,4508 123456\n\nid,total\n2,4510123456'), ['4508 123456'], 'a blank line ends the table');
});

t.test('series and number in the forms people write', async (t) => {
  t.same(passports('Паспорт серия 45 08 № 123456 выдан ОВД'), ['45 08 № 123456']);
  t.same(passports('серия 4508 номер 123456'), ['4508 номер 123456']);
  t.same(passports('паспорт: 4508 123456'), ['4508 123456']);
  t.same(passports('паспорт 4508123456'), ['4508123456'], 'ten digits together with a passport word');
  t.same(passports('паспорт4508123456'), ['4508123456'], 'glued to the word');
  t.same(passports('серия: 4508, номер: 123456'), ['4508, номер: 123456']);
  t.same(passports('Passport No. 4508 123456'), ['4508 123456']);
  t.same(passports('паспорт 4508-123456'), ['4508-123456'], 'a dash next to a passport word');
  t.same(passports('45 08 123456'), ['45 08 123456'], 'the grouped form alone');
  t.same(passports('4508 № 123456'), ['4508 № 123456']);
  t.same(passports('{"passport":"4508 123456"}'), ['4508 123456']);
});

t.test('other numbers are not passports', async (t) => {
  t.same(passports('4508123456'), [], 'ten digits without a passport word');
  t.same(passports('4567 123456'), [], 'year 67: no such blank');
  t.same(passports('00 08 123456'), [], 'region 00');
  t.same(passports('4508 12345'), [], 'five-digit number');
  t.same(passports('номер заказа 4508 123456'), [], 'an order');
  t.same(passports('2024-123456'), [], 'a dashed number without a passport word');
  t.same(passports('паспорт будет готов 15.03.2024'), []);
});

t.test('mask: all digits, the rest kept (our choice)', async (t) => {
  t.equal(passportRule.mask('45 08 № 123456'), '** ** № ******');
  t.equal(passportRule.mask('4508123456'), '**********');
});
