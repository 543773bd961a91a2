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

t.test('a child of a logger that has written nothing is lazy too, and writes both bindings once', async (t) => {
  const { logger, lines } = capture('info');
  const makeChild = logger.child.bind(logger);
  let made = 0;
  logger.child = ((...args: Parameters<Pino.Logger['child']>) => {
    made++;
    return makeChild(...args);
  }) as Pino.Logger['child'];
  const request = lazyChildLoggerFactory(logger, { trace_id: 't3' }, { level: 'warn' });
  const sampled = request.child({ span_id: 's3' });
  t.equal(made, 0, 'no pino child until a line is written');
  sampled.info('below the route level');
  t.equal(made, 0);
  sampled.warn('kept');
  sampled.error('kept too');
  t.equal(made, 1, 'one pino child carries both bindings');
  t.same(
    lines.map((l) => [l.msg, l.trace_id, l.span_id]),
    [
      ['kept', 't3', 's3'],
      ['kept too', 't3', 's3'],
    ],
  );
  // pino's children inherit their parent's methods: the counting wrapper would bind a grandchild to the root.
  delete (logger as { child?: unknown }).child;
  // Once the parent has its real logger, a child is made from it at once.
  request.warn('parent line');
  request.child({ span_id: 's4' }).warn('from the real parent');
  t.match(lines.at(-1), { msg: 'from the real parent', trace_id: 't3', span_id: 's4' });
});
