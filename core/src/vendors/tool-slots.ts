import type { ToolArgumentsChannel } from './types.js';

// The stream slot of one tool call's arguments: apart from the answer text's slots (whose keys are
// choice indexes, block indexes, item ids), so a vendor's repeats can name the same slot.
export const TOOL_SLOT_PREFIX = 'tool:';

/** The slot key of a tool call's arguments: its answer slot, and its call within it when there are several. */
export function toolSlotKey(slot: string, call?: string): string {
  return call === undefined ? `${TOOL_SLOT_PREFIX}${slot}` : `${TOOL_SLOT_PREFIX}${slot}:${call}`;
}

/** The slot key of a tool call's name: apart from its arguments' slot. */
export function toolNameSlotKey(slot: string, call?: string): string {
  return `name:${toolSlotKey(slot, call)}`;
}

export function isToolSlot(key: string): boolean {
  return key.startsWith(TOOL_SLOT_PREFIX);
}

/** The channel of the calls' names beside an arguments channel: the same calls, the name at `key` of the same parent. */
export function namesBeside(channel: ToolArgumentsChannel, key = 'name'): ToolArgumentsChannel {
  return { ...channel, key, encoding: 'name' };
}
