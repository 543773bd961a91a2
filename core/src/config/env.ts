import { z } from 'zod';

/**
 * Environment parsing: each variable is a zod schema built by one of these helpers, carrying a short
 * phrase of what it accepts, so that a bad value stops start-up with one line naming the variable.
 */
export interface EnvVar<T> {
  readonly schema: z.ZodType<T>;
  readonly accepts: string;
  readonly secret?: boolean;
}

const TRUE = new Set(['true', '1', 'yes', 'on']);
const FALSE = new Set(['false', '0', 'no', 'off']);

export function envBool(defaultValue: boolean): EnvVar<boolean> {
  const schema = z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw === '') return defaultValue;
      const v = raw.trim().toLowerCase();
      if (TRUE.has(v)) return true;
      if (FALSE.has(v)) return false;
      ctx.addIssue({ code: 'custom', message: 'not a boolean' });
      return z.NEVER;
    });
  return { schema, accepts: 'true or false' };
}

export function envInt(min: number, max: number, defaultValue?: number): EnvVar<number> {
  const schema = z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw === '') {
        if (defaultValue !== undefined) return defaultValue;
        ctx.addIssue({ code: 'custom', message: 'required' });
        return z.NEVER;
      }
      const n = Number(raw.trim());
      if (!Number.isInteger(n) || n < min || n > max) {
        ctx.addIssue({ code: 'custom', message: 'out of range' });
        return z.NEVER;
      }
      return n;
    });
  return { schema, accepts: `an integer ${min}-${max}` };
}

const SECONDS_UNITS: Readonly<Record<string, number>> = { ms: 0.001, s: 1, m: 60, h: 3600 };

/**
 * A duration in seconds: a bare number (`660`) or with a unit (`660s`, `11m`, `1500ms`, `1h`), the
 * forms deployment manifests use for timeouts. Returns seconds (fractions allowed).
 */
export function envSeconds(min: number, max: number, defaultValue: number): EnvVar<number> {
  const schema = z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw.trim() === '') return defaultValue;
      const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(raw.trim().toLowerCase());
      const seconds = m ? Number(m[1]) * SECONDS_UNITS[m[2] ?? 's']! : Number.NaN;
      if (!Number.isFinite(seconds) || seconds < min || seconds > max) {
        ctx.addIssue({ code: 'custom', message: 'out of range' });
        return z.NEVER;
      }
      return seconds;
    });
  return { schema, accepts: `a duration of ${min}-${max} seconds (e.g. ${defaultValue} or ${defaultValue}s)` };
}

export function envString(defaultValue?: string): EnvVar<string | undefined> {
  const schema = z
    .string()
    .optional()
    .transform((raw) => (raw === undefined || raw === '' ? defaultValue : raw));
  return { schema, accepts: 'a string' };
}

export function envSecret(): EnvVar<string | undefined> {
  return { ...envString(), secret: true };
}

export function envEnum<const T extends readonly [string, ...string[]]>(values: T, defaultValue: T[number]): EnvVar<T[number]> {
  const allowed = new Set<string>(values);
  const schema = z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw === '') return defaultValue;
      if (!allowed.has(raw)) {
        ctx.addIssue({ code: 'custom', message: 'not allowed' });
        return z.NEVER;
      }
      return raw as T[number];
    });
  return { schema, accepts: `one of ${values.join(', ')}` };
}

/** A URL whose scheme is one of `protocols` (without the colon), e.g. ['postgres', 'postgresql']. */
export function envUrl(protocols: readonly string[], defaultValue?: string): EnvVar<string | undefined> {
  const schema = z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw === '') return defaultValue;
      let url: URL;
      try {
        url = new URL(raw);
      } catch {
        ctx.addIssue({ code: 'custom', message: 'not a URL' });
        return z.NEVER;
      }
      if (!protocols.includes(url.protocol.replace(/:$/, ''))) {
        ctx.addIssue({ code: 'custom', message: 'wrong scheme' });
        return z.NEVER;
      }
      return raw;
    });
  return { schema, accepts: `a ${protocols.map((p) => `${p}://`).join(' or ')} URL` };
}

export type EnvSpec = Record<string, EnvVar<unknown>>;
export type EnvValues<S extends EnvSpec> = { [K in keyof S]: S[K] extends EnvVar<infer T> ? T : never };

/** Thrown for a bad configuration value; its message is the one line the CLI prints. */
export class ConfigError extends Error {
  constructor(
    message: string,
    readonly variable: string,
  ) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** Parses the variables of `spec` from `env`; the first bad one throws a ConfigError naming it. */
export function parseEnv<S extends EnvSpec>(spec: S, env: NodeJS.ProcessEnv = process.env): EnvValues<S> {
  const out: Record<string, unknown> = {};
  for (const [name, variable] of Object.entries(spec)) {
    const raw = env[name];
    const result = variable.schema.safeParse(raw);
    if (!result.success) {
      const shown = variable.secret ? '(hidden)' : JSON.stringify(raw);
      throw new ConfigError(`Invalid configuration: ${name}=${shown} — expected ${variable.accepts}`, name);
    }
    out[name] = result.data;
  }
  return out as EnvValues<S>;
}
