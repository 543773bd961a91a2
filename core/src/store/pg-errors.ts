import { PalisadeError } from '../errors/index.js';

interface PgLikeError {
  code?: string;
  constraint?: string;
}

/**
 * Maps database constraint failures to catalogue errors; `messages` names what each constraint
 * means to a user (e.g. "a provider with this name already exists").
 */
export function mapConstraintError(error: unknown, messages: Record<string, string> = {}): unknown {
  const pgError = error as PgLikeError;
  if (!pgError || typeof pgError !== 'object') return error;
  if (pgError.code === '23505') {
    const message = (pgError.constraint && messages[pgError.constraint]) || 'A record with the same unique value already exists';
    return new PalisadeError('CONFLICT', { message, cause: error });
  }
  if (pgError.code === '23503') {
    const message = (pgError.constraint && messages[pgError.constraint]) || 'A referenced record does not exist';
    return new PalisadeError('CONFLICT', { message, cause: error });
  }
  return error;
}
