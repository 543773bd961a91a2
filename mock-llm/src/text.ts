// Small readers for the request shapes vendors use, and text helpers for answers.
import type { JsonObject } from './types.js';

export function asObject(value: unknown): JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : {};
}

export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function asString(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/**
 * Text of a message content: a string, or an array of parts/blocks with `text`
 * (vendor_a content parts, vendor_b blocks, vendor_e v2 content, vendor_d parts).
 */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  return asArray(content)
    .map((part) => (typeof part === 'string' ? part : asString(asObject(part).text)))
    .join('');
}

/** Text of the last user message (or of the last message when no role says user). */
export function lastUserText(messages: unknown, field = 'content', userRoles = ['user']): string {
  const list = asArray(messages).map(asObject);
  const users = list.filter((m) => userRoles.includes(asString(m.role)));
  const last = users.at(-1) ?? list.at(-1);
  return last ? contentText(last[field]) : '';
}

/** First string of a prompt that may be a string or a list (legacy completions, inputs). */
export function firstString(value: unknown): string {
  if (typeof value === 'string') return value;
  const first = asArray(value)[0];
  return typeof first === 'string' ? first : '';
}

/** Rough token count (about 4 characters a token) so usage fields look plausible. */
export function estimateTokens(text: string): number {
  return text.length === 0 ? 0 : Math.max(1, Math.ceil(text.length / 4));
}

/**
 * Splits an answer into stream pieces: one per word (whitespace kept, so joining gives the
 * text back); a single word is halved so every non-trivial stream has several pieces.
 */
export function chunkText(text: string): string[] {
  if (text.length === 0) return [];
  const words = text.match(/\s*\S+\s*/g) ?? [text];
  if (words.length > 1) return words;
  if (text.length < 2) return [text];
  const mid = Math.ceil(text.length / 2);
  return [text.slice(0, mid), text.slice(mid)];
}

/** Tool-call arguments stream as token-sized fragments (a few characters), so values are split across them. */
export function chunkArguments(text: string, size = 4): string[] {
  const points = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < points.length; i += size) out.push(points.slice(i, i + size).join(''));
  return out;
}

/** Tool-call arguments as the object vendors with object arguments send (`{}` when the text is not JSON). */
export function argumentsObject(args: string): unknown {
  try {
    return JSON.parse(args) as unknown;
  } catch {
    return {};
  }
}

export function unixSeconds(ms: number): number {
  return Math.floor(ms / 1000);
}
