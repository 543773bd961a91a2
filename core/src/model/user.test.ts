import t from 'tap';
import { User, UserCreate, UserUpdate } from './user.js';
import { issuePaths, parseOk } from '../testing/model.js';

const base = { username: 'ivan', email: 'ivan.petrov@example.com', password: 'correct-horse', first_name: 'Ivan', last_name: 'Petrov' };

t.test('create: every field required', async (t) => {
  t.same(parseOk(UserCreate, base), base);
  for (const field of ['username', 'email', 'password', 'first_name', 'last_name']) {
    t.same(issuePaths(UserCreate, { ...base, [field]: undefined }), [field], `${field} missing`);
  }
});

t.test('username min 3, password min 8, RFC 5322 e-mail', async (t) => {
  t.same(issuePaths(UserCreate, { ...base, username: 'ab' }), ['username']);
  t.same(issuePaths(UserCreate, { ...base, username: 'abc' }), []);
  t.same(issuePaths(UserCreate, { ...base, username: 'a b c' }), ['username']);
  t.same(issuePaths(UserCreate, { ...base, password: '1234567' }), ['password']);
  t.same(issuePaths(UserCreate, { ...base, password: '12345678' }), []);
  for (const email of ['no-at-sign', 'a@b', 'a@@b.com', 'a b@c.com', '']) t.same(issuePaths(UserCreate, { ...base, email }), ['email'], email);
  for (const email of ['first.last+tag@sub.example.org', 'x@example.co']) t.same(issuePaths(UserCreate, { ...base, email }), [], email);
  t.same(issuePaths(UserCreate, { ...base, first_name: '' }), ['first_name']);
});

t.test('update: any of username, email, first_name, last_name', async (t) => {
  t.same(parseOk(UserUpdate, { email: 'new@example.com' }), { email: 'new@example.com' });
  t.same(parseOk(UserUpdate, { first_name: 'Ivan', last_name: 'P' }), { first_name: 'Ivan', last_name: 'P' });
  t.same(parseOk(UserUpdate, { password: 'whatever1' }), {}, 'the password is not changed here');
  t.same(issuePaths(UserUpdate, { username: 'ab' }), ['username']);
  t.same(issuePaths(UserUpdate, { email: 'bad' }), ['email']);
});

t.test('the user record', async (t) => {
  const u = parseOk(User, { id: globalThis.crypto.randomUUID(), username: 'ivan', email: 'ivan@example.com', createdTimestamp: Date.now() });
  t.equal(u.enabled, true);
  t.equal(u.emailVerified, false);
  t.same(u.roles, []);
  t.same(issuePaths(User, { ...u, roles: ['root'] }), ['roles.0']);
  t.same(issuePaths(User, { ...u, createdTimestamp: 'now' }), ['createdTimestamp']);
});
