import { PalisadeError, type Texts } from '../errors/index.js';

interface PgLikeError {
  code?: string;
  constraint?: string;
}

/**
 * Maps database constraint failures to catalogue errors; `messages` names what each constraint
 * means to a user (e.g. "a provider with this name already exists").
 */
export function mapConstraintError(error: unknown, messages: Record<string, Texts> = {}): unknown {
  const pgError = error as PgLikeError;
  if (!pgError || typeof pgError !== 'object') return error;
  if (pgError.code === '23505') {
    const message = (pgError.constraint && messages[pgError.constraint]) || { en: 'A record with the same unique value already exists', ru: 'Запись с таким уникальным значением уже существует' };
    return new PalisadeError('CONFLICT', { message, cause: error });
  }
  if (pgError.code === '23503') {
    const message = (pgError.constraint && messages[pgError.constraint]) || { en: 'A referenced record does not exist', ru: 'Запись, на которую есть ссылка, не существует' };
    return new PalisadeError('CONFLICT', { message, cause: error });
  }
  return error;
}

/** Socket failures of the driver (Node's error codes). */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
/**
 * SQLSTATEs that mean "the database cannot serve now", not "this statement is wrong": class 08
 * (connection exception), 57P01-57P03 (shutdown, crash, starting), 53300 (too many connections) and
 * 3D000 (the database is gone).
 */
const UNAVAILABLE_STATES = /^(08...|57P0[123]|53300|3D000)$/;
/** pg and PGlite report a lost or closed connection only in the message. */
const UNAVAILABLE_MESSAGE = /^(Connection terminated|Client has encountered a connection error|Cannot use a pool after calling end|timeout exceeded when trying to connect|PGlite is closed)/i;

/** Whether an error means the database is unreachable (as opposed to a failed statement). */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_STATES.test(code))) return true;
  return typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message);
}

/** A database outage as the catalogue's 503 (with Retry-After); any other error unchanged. */
export function mapUnavailableError(error: unknown): unknown {
  if (error instanceof PalisadeError || !isDatabaseUnavailable(error)) return error;
  return new PalisadeError('SERVICE_UNAVAILABLE', { message: { en: 'The database is unavailable; try again shortly', ru: 'База данных недоступна; повторите чуть позже' }, retryAfter: 5, cause: error });
}

/** For `.catch(rethrowUnavailable)` on driver calls: a lost or closed database is a 503, not a 500. */
export function rethrowUnavailable(error: unknown): never {
  throw mapUnavailableError(error);
}
