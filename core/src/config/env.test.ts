import t from 'tap';
import { ConfigError, envBool, envEnum, envInt, envSeconds, envUrl, parseEnv } from './env.js';
import { loadCommonConfig } from './common.js';

t.test('defaults apply when variables are unset', async (t) => {
  const cfg = parseEnv({ A: envInt(10, 3600, 60), B: envBool(true), C: envEnum(['x', 'y'], 'y') }, {});
  t.same(cfg, { A: 60, B: true, C: 'y' });
});

t.test('values are parsed', async (t) => {
  const cfg = parseEnv({ A: envInt(10, 3600, 60), B: envBool(true) }, { A: '120', B: 'false' });
  t.same(cfg, { A: 120, B: false });
});

t.test('a bad value throws one line naming the variable and what it accepts', async (t) => {
  const spec = { HEALTH_CHECK_INTERVAL_SECONDS: envInt(10, 3600, 60) };
  for (const raw of ['5', '3601', 'abc', '1.5']) {
    const err = t.throws(() => parseEnv(spec, { HEALTH_CHECK_INTERVAL_SECONDS: raw })) as unknown as ConfigError;
    t.ok(err instanceof ConfigError);
    t.equal(err.variable, 'HEALTH_CHECK_INTERVAL_SECONDS');
    t.match(err.message, /HEALTH_CHECK_INTERVAL_SECONDS=.* expected an integer 10-3600/);
    t.notMatch(err.message, /\n/);
  }
});

t.test('booleans accept the usual spellings and refuse others', async (t) => {
  for (const v of ['true', '1', 'yes', 'ON']) t.equal(parseEnv({ X: envBool(false) }, { X: v }).X, true);
  for (const v of ['false', '0', 'no', 'off']) t.equal(parseEnv({ X: envBool(true) }, { X: v }).X, false);
  t.throws(() => parseEnv({ X: envBool(true) }, { X: 'maybe' }), /X="maybe" — expected true or false/);
});

t.test('URLs are checked for form and scheme', async (t) => {
  t.throws(() => loadCommonConfig({ DATABASE_URL: 'not a url' }), /DATABASE_URL="not a url" — expected a postgres:\/\/ or postgresql:\/\/ URL/);
  t.throws(() => loadCommonConfig({ DATABASE_URL: 'mysql://x/y' }), /DATABASE_URL/);
  t.equal(loadCommonConfig({ DATABASE_URL: 'postgres://u@127.0.0.1:5432/db' }).DATABASE_URL, 'postgres://u@127.0.0.1:5432/db');
  t.throws(() => parseEnv({ U: envUrl(['redis']) }, { U: 'http://x' }), /expected a redis:\/\/ URL/);
});

t.test('secrets are not echoed', async (t) => {
  t.throws(() => loadCommonConfig({ LOG_LEVEL: 'loud' }), /LOG_LEVEL="loud" — expected one of fatal/);
  const spec = { S: { ...envInt(1, 2), secret: true } };
  t.throws(() => parseEnv(spec, { S: 'topsecret' }), /S=\(hidden\)/);
});

t.test('common config defaults', async (t) => {
  const cfg = loadCommonConfig({});
  t.equal(cfg.DATABASE_URL, undefined);
  t.equal(cfg.PALISADE_DATA_DIR, '.data');
  t.equal(cfg.AUTH_PROXY_ENABLED, true);
  t.equal(cfg.LOG_LEVEL, 'info');
});

t.test('envSeconds takes bare seconds or a unit, within its range', async (t) => {
  const spec = { W: envSeconds(1, 3600, 660) };
  t.equal(parseEnv(spec, {}).W, 660, 'default');
  t.equal(parseEnv(spec, { W: '120' }).W, 120);
  t.equal(parseEnv(spec, { W: '660s' }).W, 660);
  t.equal(parseEnv(spec, { W: '11m' }).W, 660);
  t.equal(parseEnv(spec, { W: '1500ms' }).W, 1.5);
  t.equal(parseEnv(spec, { W: '1h' }).W, 3600);
  for (const bad of ['0', '2h', 'soon', '-5', '5 s']) {
    t.throws(() => parseEnv(spec, { W: bad }), { name: 'ConfigError', message: /W.*duration of 1-3600 seconds/ }, bad);
  }
});
