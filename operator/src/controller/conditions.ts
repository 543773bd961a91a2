// Status conditions in the Kubernetes convention: lastTransitionTime changes only when a condition's
// status does, so a resync that finds nothing new leaves the status byte for byte as it was.

export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  observedGeneration?: number;
  lastTransitionTime: string;
  reason: string;
  message: string;
}

export function setCondition(previous: readonly Condition[] | undefined, next: Omit<Condition, 'lastTransitionTime'>, now: Date): Condition[] {
  const list = [...(previous ?? [])];
  const index = list.findIndex((c) => c.type === next.type);
  const before = index >= 0 ? list[index] : undefined;
  const lastTransitionTime = before && before.status === next.status ? before.lastTransitionTime : now.toISOString().replace(/\.\d+Z$/, 'Z');
  const condition: Condition = { ...next, lastTransitionTime };
  if (index >= 0) list[index] = condition;
  else list.push(condition);
  return list;
}
