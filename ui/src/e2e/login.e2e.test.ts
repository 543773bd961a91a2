// The console as a person reaches it in production mode: `palisade all` with the login on
// (AUTH_PROXY_ENABLED=true starts the identity provider and the authentication proxy), the browser
// opens the proxy, signs in at the IdP's form and lands in the Admin UI, whose API calls carry the
// proxy's identity — no test headers anywhere.
import { createServer } from 'node:net';
import t from 'tap';
import { browserSkipReason, browserTest } from '@palisade/core/testing/browser';
import { startStack, type StackUrls } from '../testing/stack.js';

t.setTimeout(600_000);
const ADMIN = { email: 'admin@acme.test', password: 'console-login-1' };

/** A free port: the proxy's redirect URL and the IdP's issuer name their ports before they listen. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

let proxy = '';
if (!browserSkipReason()) {
  const [idpPort, proxyPort] = [await freePort(), await freePort()];
  const urls: StackUrls = await startStack(
    (stop) => t.teardown(stop),
    {
      AUTH_PROXY_ENABLED: 'true',
      PALISADE_PORT_IDP: String(idpPort),
      PALISADE_PORT_AUTH_PROXY: String(proxyPort),
      ADMIN_USER_EMAIL: ADMIN.email,
      ADMIN_USER_PASSWORD: ADMIN.password,
      ADMIN_USER_TENANT: 'acme',
    },
    ['idp', 'auth-proxy'],
  );
  proxy = `http://localhost:${new URL(urls['auth-proxy']!).port}`;
}

await browserTest(t, 'the initial administrator signs in through the proxy and works in the console', async (t, page) => {
  await page.goto(`${proxy}/providers`);
  await page.getByLabel(/Username or e-mail/).fill(ADMIN.email);
  await page.getByLabel(/^Password$/).fill(ADMIN.password);
  await page.getByRole('button', { name: /Sign in/ }).click();
  await page.waitForURL(`${proxy}/providers`);
  await page.locator('main h2').first().waitFor();
  t.match(await page.getByTestId('whoami').textContent(), /admin.*\(Administrator\).*acme/, 'the console knows who signed in');
  t.equal(await page.getByTestId('create').count(), 1, 'an administrator may create');
  const status = await page.evaluate(async () => (await fetch('/api/v1/me')).status);
  t.equal(status, 200, 'the console calls the Admin API through the proxy with the session');
  await page.goto(`${proxy}/users`);
  await page.locator('main h2').first().waitFor();
  t.notMatch(await page.locator('main').textContent(), /Authentication required|FORBIDDEN/, 'the users section opens');
});

await browserTest(t, 'without a session the console is not served: the browser is sent to sign in', async (t, page) => {
  await page.goto(`${proxy}/dashboard`);
  t.ok(await page.getByRole('button', { name: /Sign in/ }).isVisible(), 'the IdP login form');
  t.notOk(page.url().startsWith(proxy), 'not the proxy origin');
});
