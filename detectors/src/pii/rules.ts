// The rule of every PII type, in the spec's order.
import type { PiiType } from '@palisade/core';
import type { PiiRule } from './rule.js';
import { apiKeyRule } from './types/api-key.js';
import { creditCardRule } from './types/credit-card.js';
import { databaseUrlRule } from './types/database-url.js';
import { emailRule } from './types/email.js';
import { githubTokenRule } from './types/github-token.js';
import { innRule } from './types/inn.js';
import { jwtRule } from './types/jwt.js';
import { passportRule } from './types/passport.js';
import { phoneRule } from './types/phone.js';
import { privateKeyRule } from './types/private-key.js';
import { snilsRule } from './types/snils.js';
import { systemPromptLeakRule } from './types/system-prompt-leak.js';

export const PII_RULES: readonly PiiRule[] = [
  creditCardRule,
  innRule,
  snilsRule,
  phoneRule,
  emailRule,
  passportRule,
  apiKeyRule,
  githubTokenRule,
  jwtRule,
  databaseUrlRule,
  privateKeyRule,
  systemPromptLeakRule,
];

const BY_TYPE = new Map<PiiType, PiiRule>(PII_RULES.map((rule) => [rule.type, rule]));

export function piiRuleFor(type: PiiType): PiiRule {
  const rule = BY_TYPE.get(type);
  if (!rule) throw new Error(`no PII rule for ${type}`);
  return rule;
}

/**
 * Which interpretation wins when two candidates cover the same characters with the same length and
 * score: the more specific structure first (a key inside a URL is the URL's; an e-mail is not a phone).
 */
export const PII_SPECIFICITY: readonly PiiType[] = [
  'PRIVATE_KEY',
  'DATABASE_URL',
  'JWT',
  'GITHUB_TOKEN',
  'API_KEY',
  'EMAIL',
  'CREDIT_CARD',
  'SNILS',
  'PASSPORT_RF',
  'INN',
  'PHONE_NUMBER',
  'SYSTEM_PROMPT_LEAK',
];
