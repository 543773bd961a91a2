// The role/content chat request, as the vendors that copied vendor_a's messages read it.
import type { FieldMapping } from '../mapping/presets.js';

export const USER_MESSAGES = "$.messages[?(@.role=='user')]";
export const SYSTEM_CONTENT = "$.messages[?(@.role=='system')].content";

/** Where a role/content chat request keeps the prompt, system prompt, user messages and model. */
export const CHAT_REQUEST = {
  prompt_path: '$.messages[*].content',
  system_prompt_path: SYSTEM_CONTENT,
  user_messages_path: USER_MESSAGES,
  model_path: '$.model',
} as const satisfies Omit<FieldMapping, 'response_path'>;
