// End to end in real Chromium: the browser opens the proxy, logs in at the IdP's form and comes back
// with a session; forced password change, viewer 403, disabled user, lockout, expired session and
// spoofed headers, as a person would see them. (The stand-in UI echoes the identity it received.)
import t from 'tap';
import type { Page } from 'playwright-core';
import { openDatabase } from '@palisade/core';
import { browserTest } from '@palisade/core/testing/browser';
import { TEST_ADMIN } from '../testing/oidc.js';
import { startLoginStack } from '../testing/stack.js';

async function logIn(page: Page, login: string, password: string) {
  await page.getByLabel(/Username or e-mail|Имя пользователя/).fill(login);
  await page.getByLabel(/^(Password|Пароль)$/).fill(password);
  await page.getByRole('button', { name: /Sign in|Войти/ }).click();
}

const apiStatus = (page: Page, path: string) => page.evaluate(async (p) => (await fetch(p)).status, path);

t.test('login in Chromium', async (t) => {
  const db = await openDatabase({ migrate: true });
  t.teardown(() => db.close());
  let clock = Date.now();
  const stack = await startLoginStack(t, db, { AUTH_PROXY_COOKIE_EXPIRE_MINUTES: '5' }, { now: () => clock });
  const { proxyBase, issuer, identity } = stack;

  await browserTest(t, 'initial admin logs in and calls the Admin API through the proxy', async (t, page) => {
    await page.goto(`${proxyBase}/providers`);
    t.equal(new URL(page.url()).origin, issuer, 'sent to the IdP');
    t.equal(await page.getByRole('heading').textContent(), 'Sign in to Palisade');
    await logIn(page, TEST_ADMIN.email, TEST_ADMIN.password);
    await page.waitForURL(`${proxyBase}/providers`);
    const seen = JSON.parse((await page.locator('#identity').textContent()) ?? '{}');
    t.match(seen, { 'x-forwarded-user': 'admin', 'x-forwarded-groups': 'admin', 'x-forwarded-tenant-id': 'acme', 'x-forwarded-email': TEST_ADMIN.email });
    t.equal(await apiStatus(page, '/api/v1/users'), 200);
    const cookies = await page.context().cookies(proxyBase);
    t.match(cookies.find((c) => c.name === '_palisade_session'), { httpOnly: true, sameSite: 'Lax' });
    const spoofed = await page.evaluate(async () => (await fetch('/anything', { headers: { 'x-forwarded-user': 'mallory', 'x-forwarded-groups': 'super-admin' } })).text());
    t.match(spoofed, /"x-forwarded-user":"admin"/, 'spoofed headers through the proxy are replaced');
    t.notMatch(spoofed, /mallory|super-admin/);
    clock += 6 * 60_000;
    const visited: string[] = [];
    page.on('request', (request) => visited.push(request.url()));
    await page.goto(`${proxyBase}/providers`);
    t.ok(visited.some((url) => url.startsWith(`${issuer}/auth`)), 'an expired session is sent to the IdP to log in again');
    t.ok(visited.some((url) => url.startsWith(`${proxyBase}/oauth2/callback`)), '(its SSO session, still alive, answers without the form)');
    clock = Date.now();
  });

  await browserTest(t, 'Russian login page, temporary password must be changed first', async (t, page) => {
    const user = await identity.createUser({ username: 'olga', email: 'olga@acme.test', password: 'olga-pass-1', first_name: 'Olga', last_name: 'O', tenant_id: 'acme' });
    await identity.assignRole(user.id, 'operator');
    await identity.resetPassword(user.id, 'temp-pass-1', true);
    await page.setExtraHTTPHeaders({ 'accept-language': 'ru' });
    await page.goto(`${proxyBase}/`);
    t.equal(await page.getByRole('heading').textContent(), 'Вход в Palisade');
    await logIn(page, 'olga', 'temp-pass-1');
    t.equal(await page.getByRole('heading').textContent(), 'Смена пароля', 'no session before the change');
    t.notOk((await page.context().cookies(proxyBase)).some((c) => c.name === '_palisade_session'));
    await page.getByLabel('Новый пароль', { exact: true }).fill('olga-new-pass');
    await page.getByLabel('Повторите новый пароль').fill('olga-new-pass');
    await page.getByRole('button', { name: 'Сменить пароль' }).click();
    await page.waitForURL(`${proxyBase}/`);
    t.equal(await apiStatus(page, '/api/v1/providers'), 200, 'then a session');
  });

  await browserTest(t, 'a viewer is refused the user endpoints', async (t, page) => {
    const user = await identity.createUser({ username: 'vlad', email: 'vlad@acme.test', password: 'vlad-pass-1', first_name: 'Vlad', last_name: 'V', tenant_id: 'acme' });
    await identity.assignRole(user.id, 'viewer');
    await page.goto(`${proxyBase}/`);
    await logIn(page, 'vlad', 'vlad-pass-1');
    await page.waitForURL(`${proxyBase}/`);
    t.equal(await apiStatus(page, '/api/v1/providers'), 200);
    t.equal(await apiStatus(page, '/api/v1/users'), 403);
  });

  await browserTest(t, 'a disabled user cannot log in; repeated failures lock the account', async (t, page) => {
    const user = await identity.createUser({ username: 'dora', email: 'dora@acme.test', password: 'dora-pass-1', first_name: 'Dora', last_name: 'D', tenant_id: 'acme' });
    await identity.setEnabled(user.id, false);
    await page.goto(`${proxyBase}/`);
    await logIn(page, 'dora', 'dora-pass-1');
    t.match(await page.getByRole('alert').textContent(), /disabled/);
    await identity.setEnabled(user.id, true);
    for (let i = 0; i < 5; i++) {
      await logIn(page, 'dora', `wrong-${i}`);
      await page.getByRole('alert').waitFor();
    }
    await logIn(page, 'dora', 'dora-pass-1');
    t.match(await page.getByRole('alert').textContent(), /Too many failed attempts/, 'locked even with the right password');
    t.equal(new URL(page.url()).origin, issuer);
  });
});
