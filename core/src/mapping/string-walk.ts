// Every string value of a JSON body, with its location: what the gateway inspects when a provider's
// mapping finds no prompt in a body that still carries text (a wrong-typed `messages`, a body of
// another vendor's format), so that nothing with text goes upstream uninspected.
import type { JsonPointer } from './json-pointer.js';
import type { TextPart } from './text-parts.js';

export interface StringWalk {
  parts: TextPart[];
  /** The body nests deeper than the walk goes: some strings were not reached. */
  tooDeep: boolean;
}

/** Nesting no LLM request needs; bounds the pointer kept per string, so the walk stays linear. */
export const STRING_WALK_MAX_DEPTH = 64;

/** A loop over an explicit stack (no recursion: a 100k-deep body must not overflow the call stack). */
export function collectAllStrings(body: unknown, maxDepth: number = STRING_WALK_MAX_DEPTH): StringWalk {
  const parts: TextPart[] = [];
  let tooDeep = false;
  const stack: Array<{ value: unknown; pointer: JsonPointer }> = [{ value: body, pointer: [] }];
  while (stack.length > 0) {
    const { value, pointer } = stack.pop()!;
    if (typeof value === 'string') {
      if (value !== '') parts.push({ pointer, text: value });
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (pointer.length >= maxDepth) {
      tooDeep = true;
      continue;
    }
    // Pushed in reverse, so the parts come out in document order.
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], pointer: [...pointer, i] });
    } else {
      const keys = Object.keys(value);
      for (let i = keys.length - 1; i >= 0; i--) stack.push({ value: (value as Record<string, unknown>)[keys[i]!], pointer: [...pointer, keys[i]!] });
    }
  }
  return { parts, tooDeep };
}
