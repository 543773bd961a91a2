// The dashboard's time ranges, shared with the events list it links to (from/to in the URL).
export type RangeKey = 'h24' | 'd7' | 'd30' | 'custom';
const HOURS: Record<Exclude<RangeKey, 'custom'>, number> = { h24: 24, d7: 24 * 7, d30: 24 * 30 };

export function rangeOf(key: RangeKey, custom: { from?: string; to?: string }, now = new Date()): { from: string; to: string } {
  if (key === 'custom' && custom.from && custom.to) return { from: new Date(custom.from).toISOString(), to: new Date(custom.to).toISOString() };
  const hours = key === 'custom' ? 24 : HOURS[key];
  return { from: new Date(now.getTime() - hours * 3600_000).toISOString(), to: now.toISOString() };
}
