// Admin API errors in the reader's language. The catalogue's messages, zod's built-in issue messages,
// the models' own field rules and the messages thrown with both texts have Russian texts; any other
// message stays as written, so nothing is ever translated into something it did not say.
import { z, ZodError, type core } from 'zod';
import type { Language } from '../i18n/language.js';
import { ERROR_CATALOGUE, type ErrorCode } from './catalogue.js';
import { FIELD_MESSAGES_RU } from './field-messages-ru.js';
import type { FieldIssue, PalisadeError } from './palisade-error.js';
import { zodIssues } from './zod-issues.js';

const CATALOGUE_RU: Record<ErrorCode, string> = {
  NO_BACKEND_CONFIGURED: 'Для этого запроса не настроен бэкенд',
  NO_BACKEND_PATH_CONFIGURED: 'Задан X-Real-Backend, но нет X-Real-Backend-Path',
  PROVIDER_MISSING_TARGET: 'У найденного провайдера нет target_base_url',
  MISSING_FIELD_MAPPING: 'У найденного провайдера нет ни mapping_preset, ни mapping_custom',
  POLICY_VIOLATION: 'Запрос заблокирован политикой безопасности',
  CUSTOM_POLICY_BLOCK: 'Запрос заблокирован контентной политикой',
  RESPONSE_BLOCKED: 'Ответ заблокирован политикой безопасности',
  AUTHENTICATION_FAILED: 'Заголовок Authorization отсутствует или неверен',
  RATE_LIMIT_EXCEEDED: 'Превышен лимит запросов',
  LLM_REQUEST_FAILED: 'Бэкенд LLM недоступен',
  LLM_TIMEOUT: 'Бэкенд LLM не ответил за request_timeout_ms',
  INVALID_REQUEST: 'Тело запроса — не корректный JSON',
  PAYLOAD_TOO_LARGE: 'Тело запроса слишком велико',
  METHOD_NOT_ALLOWED: 'Метод не разрешён',
  REQUEST_TIMEOUT: 'Запрос не получен вовремя',
  HEADERS_TOO_LARGE: 'Заголовки запроса слишком велики',
  SERVICE_UNAVAILABLE: 'Необходимый сервис недоступен',
  NOT_IMPLEMENTED: 'Не реализовано',
  INTERNAL_ERROR: 'Внутренняя ошибка',
  VALIDATION_ERROR: 'Данные запроса неверны',
  UNAUTHENTICATED: 'Требуется вход',
  FORBIDDEN: 'Доступ запрещён',
  NOT_FOUND: 'Ресурс не найден',
  CONFLICT: 'Запрос противоречит текущему состоянию',
  USERS_MANAGED_EXTERNALLY: 'Пользователями управляет внешний провайдер удостоверений (IDENTITY_PROVIDER=external)',
};

const ENGLISH = z.locales.en().localeError;
const RUSSIAN = z.locales.ru().localeError;

/**
 * zod keeps no input in its final issues, and its invalid_type text names the type it received: so the
 * issue is tried with a value of each type until the English text comes out exactly as stored.
 */
const SAMPLE_INPUTS: readonly unknown[] = [undefined, null, 0, '', true, [], {}, Number.NaN, 0n, new Date(0)];

function localeText(map: core.$ZodErrorMap, issue: core.$ZodIssue, input: unknown): string | undefined {
  const out = map({ ...issue, input } as unknown as core.$ZodRawIssue);
  return typeof out === 'string' ? out : out?.message;
}

/** A zod issue's message in Russian when it is zod's own text; the message as written otherwise. */
export function russianIssueMessage(issue: core.$ZodIssue): string {
  for (const input of SAMPLE_INPUTS) {
    if (localeText(ENGLISH, issue, input) === issue.message) return localeText(RUSSIAN, issue, input) ?? issue.message;
  }
  return issue.message;
}

/** The message and field details of an admin error, in the language asked for. */
export function localizedAdminError(error: PalisadeError, language: Language): { message: string; details?: FieldIssue[] } {
  const details = Array.isArray(error.details) ? (error.details as FieldIssue[]) : undefined;
  if (language === 'en') return details ? { message: error.message, details } : { message: error.message };
  if (details === undefined) return { message: russianMessage(error) };
  const issues = zodIssuesOf(error, details);
  const translated = details.map((detail, i) => ({ path: detail.path, message: russianFieldMessage(detail.message, issues?.[i]) }));
  return { message: russianMessage(error, details[0], translated[0]), details: translated };
}

/** The zod issues behind the details, when the details are those issues (toPalisadeError's zodIssues). */
function zodIssuesOf(error: PalisadeError, details: FieldIssue[]): readonly core.$ZodIssue[] | undefined {
  if (!(error.cause instanceof ZodError)) return undefined;
  const fromCause = zodIssues(error.cause);
  const same = details.length === fromCause.length && details.every((detail, i) => detail.path === fromCause[i]!.path && detail.message === fromCause[i]!.message);
  return same ? error.cause.issues : undefined;
}

function russianFieldMessage(message: string, issue: core.$ZodIssue | undefined): string {
  // Own keys only: a message such as "constructor" must not read the object's prototype.
  if (Object.hasOwn(FIELD_MESSAGES_RU, message)) return FIELD_MESSAGES_RU[message]!;
  return issue ? russianIssueMessage(issue) : message;
}

function russianMessage(error: PalisadeError, first?: FieldIssue, firstTranslated?: FieldIssue): string {
  if (error.texts) return error.texts.ru;
  if (error.message === ERROR_CATALOGUE[error.code].message) return CATALOGUE_RU[error.code];
  // The summary a validation failure carries: `Invalid <path>: <its first field message>`.
  if (error.code === 'VALIDATION_ERROR' && first && firstTranslated && error.message === `Invalid ${first.path || 'body'}: ${first.message}`)
    return `Неверное значение ${first.path ? `поля ${first.path}` : 'тела запроса'}: ${firstTranslated.message}`;
  return error.message;
}
