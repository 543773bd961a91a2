// Benign texts full of trigger words ("ignore", "uncensored", "jailbreak", "представь, что ты"): the
// false alarms the threat model must not raise. Plain substring tests on the normalised text (linear,
// no regex), in the six languages the grammar writes.
import { normalizeThreatText } from '../normalize.js';

export const THREAT_TRIGGER_WORDS: readonly string[] = [
  'ignore', 'disregard', 'forget', 'override', 'uncensored', 'unrestricted', 'jailbreak', 'developer mode', 'pretend', 'act as',
  'role-play', 'roleplay', 'system prompt', 'instructions', 'password', 'bypass', 'no restrictions',
  'игнорир', 'забудь', 'представь, что ты', 'притворись', 'джейлбрейк', 'системный промпт', 'инструкци', 'без ограничений', 'пароль',
  'ignorier', 'vergiss', 'anweisung', 'entwicklermodus', 'tu so, als', 'systemprompt',
  'ignore les', 'oublie', 'fais semblant', 'mode développeur', 'consignes',
  'ignora', 'olvida', 'finge', 'modo desarrollador', 'instrucciones',
  '忽略', '忘掉', '越狱', '假装', '开发者模式', '系统提示', '指令',
];

export function threatHasTriggerWord(text: string): boolean {
  const normalised = normalizeThreatText(text);
  return THREAT_TRIGGER_WORDS.some((word) => normalised.includes(word));
}
