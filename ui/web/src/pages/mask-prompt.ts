/**
 * The prompt with every personal-data span replaced by its mask. Events keep the prompt as sent; the
 * console never shows the concrete values (spans are applied from the end so offsets stay valid).
 */
export function maskPrompt(prompt: string, entities: ReadonlyArray<{ start: number; end: number; masked: string }>): string {
  let out = prompt;
  for (const e of [...entities].sort((a, b) => b.start - a.start)) {
    if (e.start >= 0 && e.end <= out.length && e.start < e.end) out = out.slice(0, e.start) + e.masked + out.slice(e.end);
  }
  return out;
}

type PromptEvent = { user_prompt?: string | null; pii_entities: ReadonlyArray<{ start: number; end: number; masked: string }> };

/**
 * The personal-data spans to mask in each event's prompt: every span found in any event of the trace
 * with the same prompt, each once. The events of one request share its prompt, but only some carry
 * the entities (a jailbreak event has none), and its prompt must not show in clear beside their mask.
 */
export function traceEntities(events: readonly PromptEvent[]): (event: PromptEvent) => PromptEvent['pii_entities'] {
  const byPrompt = new Map<string, Map<string, PromptEvent['pii_entities'][number]>>();
  for (const e of events) {
    if (!e.user_prompt) continue;
    const spans = byPrompt.get(e.user_prompt) ?? new Map();
    for (const entity of e.pii_entities) spans.set(`${entity.start}:${entity.end}`, entity);
    byPrompt.set(e.user_prompt, spans);
  }
  return (event) => [...(byPrompt.get(event.user_prompt ?? '')?.values() ?? event.pii_entities)];
}
