import t from 'tap';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import type * as Pino from 'pino';
import { lazyChildLoggerFactory } from './lazy-logger.js';

function capture(level: string) {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _e, done) {
      for (const l of chunk.toString().split('\n')) if (l) lines.push(JSON.parse(l) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level }, sink), lines };
}

t.test('writes with the bindings, only at enabled levels, honouring a route level', async (t) => {
  const { logger, lines } = capture('info');
  const child = lazyChildLoggerFactory(logger, { trace_id: 't1' }, {}) as unknown as Pino.Logger;
  child.debug('hidden');
  child.info({ a: 1 }, 'shown');
  child.error('bad');
  t.same(lines.map((l) => [l.msg, l.trace_id]), [['shown', 't1'], ['bad', 't1']]);
  t.equal(lines[0]!.a, 1);
  t.equal(child.level, 'info');
  t.ok(child.isLevelEnabled('warn'));
  t.notOk(child.isLevelEnabled('debug'));

  const quiet = lazyChildLoggerFactory(logger, { trace_id: 't2' }, { level: 'warn' });
  quiet.info('not at warn');
  quiet.warn('at warn');
  t.same(lines.slice(2).map((l) => l.msg), ['at warn']);
  const grand = quiet.child({ extra: true });
  grand.warn('nested');
  t.match(lines.at(-1), { msg: 'nested', trace_id: 't2', extra: true });
});
