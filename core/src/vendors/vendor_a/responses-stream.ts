// The Responses API's stream repeats the text its deltas carried (the `*.done` events, the output
// items, `response.completed`): the places of those repeats, so a rewritten delta is repeated alike.
import { toolNameSlotKey, toolSlotKey } from '../tool-slots.js';
import type { RepeatPlace } from '../types.js';

const objectOf = (value: unknown): Record<string, unknown> | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

/**
 * The output_text parts of a Responses API output item (a function call's arguments and name), as
 * repeats of their slots. `names`: false where the item is the name's first read (output_item.added).
 */
function itemRepeats(item: unknown, names = true): RepeatPlace[] {
  const o = objectOf(item);
  if (o?.type === 'function_call') {
    const out: RepeatPlace[] = typeof o.arguments === 'string' ? [{ slot: toolSlotKey(String(o.id)), parent: o, key: 'arguments' }] : [];
    if (names && typeof o.name === 'string') out.push({ slot: toolNameSlotKey(String(o.id)), parent: o, key: 'name' });
    return out;
  }
  if (!o || !Array.isArray(o.content)) return [];
  const out: RepeatPlace[] = [];
  o.content.forEach((part, index) => {
    const p = objectOf(part);
    if (p && typeof p.text === 'string') out.push({ slot: `${String(o.id)}:${index}`, parent: p, key: 'text' });
  });
  return out;
}

export function responsesRepeats(frame: Record<string, unknown>): RepeatPlace[] {
  const at = `${String(frame.item_id)}:${String(frame.content_index)}`;
  switch (frame.type) {
    case 'response.function_call_arguments.done':
      return typeof frame.arguments === 'string' ? [{ slot: toolSlotKey(String(frame.item_id)), parent: frame, key: 'arguments' }] : [];
    case 'response.output_text.done':
      return typeof frame.text === 'string' ? [{ slot: at, parent: frame, key: 'text' }] : [];
    case 'response.content_part.added':
    case 'response.content_part.done': {
      const part = objectOf(frame.part);
      return part && typeof part.text === 'string' ? [{ slot: at, parent: part, key: 'text' }] : [];
    }
    case 'response.output_item.added':
      return itemRepeats(frame.item, false);
    case 'response.output_item.done':
      return itemRepeats(frame.item);
    case 'response.created':
    case 'response.in_progress':
    case 'response.completed':
    case 'response.incomplete':
    case 'response.failed': {
      const output = objectOf(frame.response)?.output;
      return Array.isArray(output) ? output.flatMap((item) => itemRepeats(item)) : [];
    }
    default:
      return [];
  }
}
