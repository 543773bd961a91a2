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
