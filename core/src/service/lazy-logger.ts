// Fastify gives every request a child logger carrying its trace id. A pino child costs a few µs and
// an allocation of serialized bindings on every request, though most requests never log; this one
// makes the real child on the first line actually written.
import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, Logger } from 'pino';

const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;
type Level = (typeof LEVELS)[number];

class LazyChildLogger {
  private real: Logger | undefined;
  constructor(
    private readonly parent: Logger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions | undefined,
  ) {}

  private logger(): Logger {
    this.real ??= this.parent.child(this.bindings, this.options);
    return this.real;
  }

  get level(): string {
    return this.real?.level ?? this.options?.level ?? this.parent.level;
  }
  set level(value: string) {
    this.logger().level = value;
  }

  isLevelEnabled(level: string): boolean {
    if (this.real) return this.real.isLevelEnabled(level);
    const values = this.parent.levels.values;
    const threshold = values[this.level];
    return threshold !== undefined && (values[level] ?? -Infinity) >= threshold;
  }

  private write(level: Level, args: unknown[]): void {
    if (!this.isLevelEnabled(level)) return;
    (this.logger()[level] as (...a: unknown[]) => void)(...args);
  }

  trace(...args: unknown[]) {
    this.write('trace', args);
  }
  debug(...args: unknown[]) {
    this.write('debug', args);
  }
  info(...args: unknown[]) {
    this.write('info', args);
  }
  warn(...args: unknown[]) {
    this.write('warn', args);
  }
  error(...args: unknown[]) {
    this.write('error', args);
  }
  fatal(...args: unknown[]) {
    this.write('fatal', args);
  }
  silent() {}

  /** Still lazy when this one has written nothing: a sampled request's span id costs nothing until a line is logged. */
  child(bindings: Bindings, options?: ChildLoggerOptions): Logger {
    if (this.real || (options !== undefined && Object.keys(options).length > 0)) return this.logger().child(bindings, options);
    return new LazyChildLogger(this.parent, { ...this.bindings, ...bindings }, this.options) as unknown as Logger;
  }
}

/** fastify's `childLoggerFactory`. */
export function lazyChildLoggerFactory(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  return new LazyChildLogger(logger as unknown as Logger, bindings, options) as unknown as FastifyBaseLogger;
}
