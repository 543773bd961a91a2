/**
 * Argument checks shared by both implementations, so a bad call fails the same way (and before any
 * network round trip) on either backend.
 */
import { StreamsError } from './types.js';

function invalid(message: string): never {
  throw new StreamsError('INVALID', message);
}

export function checkName(what: string, value: string): void {
  if (typeof value !== 'string' || value.length === 0) invalid(`${what} must be a non-empty string`);
}

/** An optional TTL: absent, or a positive number of ms (fractions round up to whole ms). */
export function checkTtl(ttlMs: number | undefined): number | undefined {
  if (ttlMs === undefined) return undefined;
  if (!Number.isFinite(ttlMs) || ttlMs <= 0) invalid(`ttlMs must be a positive number, got ${ttlMs}`);
  return Math.ceil(ttlMs);
}

export function checkInteger(what: string, value: number, min: number): number {
  if (!Number.isSafeInteger(value) || value < min) invalid(`${what} must be an integer >= ${min}, got ${value}`);
  return value;
}

export function checkWindow(limit: number, windowMs: number, now: number | undefined): void {
  checkInteger('limit', limit, 0);
  if (!Number.isFinite(windowMs) || windowMs <= 0) invalid(`windowMs must be a positive number, got ${windowMs}`);
  if (now !== undefined && !Number.isFinite(now)) invalid(`now must be a finite number, got ${now}`);
}

export function checkMinIdle(minIdleMs: number): number {
  if (!Number.isFinite(minIdleMs) || minIdleMs < 0) invalid(`minIdleMs must be >= 0, got ${minIdleMs}`);
  return Math.floor(minIdleMs);
}

export function checkReadOptions(count: number | undefined, blockMs: number | undefined): { count: number; blockMs: number } {
  const c = checkInteger('count', count ?? 10, 1);
  const b = blockMs ?? 0;
  if (!Number.isFinite(b) || b < 0) invalid(`blockMs must be >= 0, got ${b}`);
  return { count: c, blockMs: Math.ceil(b) };
}

/** Stream ids as `<ms>-<seq>`: the only form ack accepts, so a typo is not silently ignored. */
export function checkIds(ids: readonly string[]): void {
  for (const id of ids) if (!/^\d+-\d+$/.test(id)) invalid(`not a stream entry id: ${JSON.stringify(id)}`);
}
