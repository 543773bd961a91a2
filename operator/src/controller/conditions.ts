// Status conditions in the Kubernetes convention: lastTransitionTime changes only when a condition's
// status does, so a resync that finds nothing new leaves the status byte for byte as it was. Reasons
// and messages are cut to the CRD's maximum lengths, which the API server would otherwise refuse.
import { CONDITION_MESSAGE_MAX_LENGTH, CONDITION_REASON_MAX_LENGTH } from '../crd/build.js';

export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  observedGeneration?: number;
  lastTransitionTime: string;
  reason: string;
  message: string;
}

const ELLIPSIS = '…';

/** `text` within `max` characters (code points, as the API server counts them), marked when cut. */
export function fitLength(text: string, max: number): string {
  if (text.length <= max) return text;
  const characters = Array.from(text);
  return characters.length <= max ? text : characters.slice(0, max - ELLIPSIS.length).join('') + ELLIPSIS;
}

export function setCondition(previous: readonly Condition[] | undefined, next: Omit<Condition, 'lastTransitionTime'>, now: Date): Condition[] {
  const list = [...(previous ?? [])];
  const index = list.findIndex((c) => c.type === next.type);
  const before = index >= 0 ? list[index] : undefined;
  const lastTransitionTime = before && before.status === next.status ? before.lastTransitionTime : now.toISOString().replace(/\.\d+Z$/, 'Z');
  const condition: Condition = {
    ...next,
    reason: fitLength(next.reason, CONDITION_REASON_MAX_LENGTH),
    message: fitLength(next.message, CONDITION_MESSAGE_MAX_LENGTH),
    lastTransitionTime,
  };
  if (index >= 0) list[index] = condition;
  else list.push(condition);
  return list;
}
