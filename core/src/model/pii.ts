// PII types of the spec's table and the modes that act on them (shared by profiles and events).
import { z } from 'zod';

/** Checked in requests (input PII). */
export const INPUT_PII_TYPES = [
  'CREDIT_CARD',
  'INN',
  'SNILS',
  'PHONE_NUMBER',
  'EMAIL',
  'PASSPORT_RF',
  'API_KEY',
  'GITHUB_TOKEN',
] as const;

/** Checked only in responses (output PII: secrets, connection strings, system prompt leaks). */
export const OUTPUT_ONLY_PII_TYPES = ['JWT', 'DATABASE_URL', 'PRIVATE_KEY', 'SYSTEM_PROMPT_LEAK'] as const;

export const PII_TYPES = [...INPUT_PII_TYPES, ...OUTPUT_ONLY_PII_TYPES] as const;
export const PiiType = z.enum(PII_TYPES);
export type PiiType = z.infer<typeof PiiType>;

/** Other spellings accepted on input (the spec's PII test calls PHONE_NUMBER "PHONE"). */
export const PII_TYPE_ALIASES: Readonly<Record<string, PiiType>> = { PHONE: 'PHONE_NUMBER' };

/** Upper-cases PII type names and maps aliases; other values pass on to the enum check. */
export function normalisePiiTypes(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return value.map((v) => {
    if (typeof v !== 'string') return v;
    const upper = v.toUpperCase();
    return PII_TYPE_ALIASES[upper] ?? upper;
  });
}

/**
 * Request PII handling: mask = placeholders like [EMAIL]; redact = remove the text; block = refuse;
 * pseudonymize = a numbered placeholder per distinct value ([EMAIL_1]) that the answer gets back as
 * the original value (the mapping lives in the request's memory only).
 */
export const PII_MODES = ['mask', 'block', 'redact', 'pseudonymize'] as const;
export const PiiMode = z.enum(PII_MODES);
export type PiiMode = z.infer<typeof PiiMode>;

/** Response PII handling. */
export const RESPONSE_PII_MODES = ['disabled', 'monitor', 'mask', 'block'] as const;
export const ResponsePiiMode = z.enum(RESPONSE_PII_MODES);
export type ResponsePiiMode = z.infer<typeof ResponsePiiMode>;
