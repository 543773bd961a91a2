import t from 'tap';
import { createColumnHeaders } from './columns.js';

const nameOf = (text: string, value: string) => createColumnHeaders(text).nameAt(text.indexOf(value));

t.test('a value takes the name of its column from the header line above', async (t) => {
  t.equal(nameOf('name,passport,phone\nIvan,4508 123456,+7 916 123-45-67', '4508'), 'passport');
  t.equal(nameOf('name;"Passport";phone\nIvan;4508 123456;+7', '4508'), 'passport', 'quotes trimmed, lower case');
  t.equal(nameOf('name\tpassport\nIvan\t4508 123456', '4508'), 'passport', 'tabs');
  t.equal(nameOf('name | passport\nIvan | 4508 123456', '4508'), 'passport', 'pipes, cells trimmed');
  t.equal(nameOf('id 1,passport\nIvan,4508 123456', '4508'), undefined, 'a line with digits is no header');
  t.equal(nameOf('just prose here\nIvan 4508 123456', '4508'), undefined, 'no separator, no header');
});

t.test('the separator is the most frequent one; on a tie, the first seen in the line', async (t) => {
  // Two commas, one semicolon: the comma splits.
  t.equal(nameOf('a;b,c,passport\nx;y,z,4508 123456', '4508'), 'passport');
  // One of each: the semicolon comes first, so "a" and "b,passport" are the cells.
  t.equal(nameOf('a;b,passport\nx;4508 123456', '4508'), 'b,passport');
  t.equal(nameOf('a,b;passport\nx,4508 123456', '4508'), 'b;passport');
});
