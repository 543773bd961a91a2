// AUTH_PROXY_ENABLED=true: the IdP and the proxy start with the Admin API, the initial administrator's
// generated password is printed once, and the Admin API answers through the proxy only.
import t from 'tap';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '@palisade/core';
import { TEST_POSTGRES_URL } from '@palisade/core/testing';

const MAIN = fileURLToPath(new URL('./main.js', import.meta.url));

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

t.test('login stack: admin-api, idp and auth-proxy in one process', { timeout: 118_000 }, async (t) => {
  const [api, idp, proxy] = [await freePort(), await freePort(), await freePort()];
  // A throw-away PostgreSQL database: the three components share it like a deployment does.
  const name = `palisade_test_${randomBytes(6).toString('hex')}`;
  const admin = await openDatabase({ databaseUrl: TEST_POSTGRES_URL, migrate: false, poolSize: 1 });
  await admin.query(`CREATE DATABASE ${name}`);
  t.teardown(async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.close();
  });
  const databaseUrl = new URL(TEST_POSTGRES_URL);
  databaseUrl.pathname = `/${name}`;
  const child = spawn(process.execPath, [MAIN, 'admin-api,idp,auth-proxy'], {
    env: {
      ...process.env,
      LOG_LEVEL: 'info',
      PALISADE_DATA_DIR: t.testdir(),
      PALISADE_HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl.toString(),
      REDIS_URL: '',
      AUTH_PROXY_ENABLED: 'true',
      ADMIN_USER_EMAIL: 'boss@acme.test',
      ADMIN_USER_PASSWORD: '',
      PALISADE_PORT_ADMIN_API: String(api),
      PALISADE_PORT_IDP: String(idp),
      PALISADE_PORT_AUTH_PROXY: String(proxy),
    },
  });
  t.teardown(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  let out = '';
  child.stderr.on('data', (d) => (out += d));
  let stdout = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`did not start: ${out}\n${stdout}`)), 100_000);
    child.stdout.on('data', (d: Buffer) => {
      stdout += String(d);
      if (stdout.includes('sign in as')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  const password = /Generated password \(shown once\): (\S+)/.exec(stdout)?.[1];
  t.ok(password, 'the generated password is printed');
  t.match(stdout, new RegExp(`open http://localhost:${proxy}/ and sign in as boss@acme.test`));
  t.equal(stdout.split(password!).length, 2, 'exactly once, and in no log line');

  const direct = await fetch(`http://127.0.0.1:${api}/api/v1/providers`, { headers: { 'x-forwarded-user': 'x', 'x-forwarded-groups': 'admin', 'x-forwarded-tenant-id': 'default' } });
  t.equal(direct.status, 401, 'the Admin API is in production mode and wants the proxy');
  const page = await fetch(`http://127.0.0.1:${proxy}/`, { headers: { accept: 'text/html' }, redirect: 'manual' });
  t.equal(page.headers.get('location'), '/oauth2/sign_in?rd=%2F');
  const token = await fetch(`http://127.0.0.1:${idp}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', client_id: 'admin-api', username: 'boss@acme.test', password: password!, scope: 'openid' }),
  });
  const { access_token } = (await token.json()) as { access_token: string };
  const viaProxy = await fetch(`http://127.0.0.1:${proxy}/api/v1/providers`, { headers: { authorization: `Bearer ${access_token}` } });
  t.equal(viaProxy.status, 200, 'the initial admin reaches the Admin API through the proxy');
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  child.kill('SIGINT');
  t.equal(await exited, 0);
});
