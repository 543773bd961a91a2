// The API's enum values (ACTIVE, REQUEST_BLOCKED, …) as words in the console's language, from the
// `enums` tables of en.ts / ru.ts. Only the words change: filters, links and forms keep sending the
// API's value.
import type { UiSchema } from '@rjsf/utils';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { en } from './en';

export type EnumKind = keyof typeof en.enums;

/** A value's word; a value without one (an API newer than the console) shows as it is. */
export const enumLabel = (t: TFunction, kind: EnumKind, value: string): string => t(`enums.${kind}.${value}`, { defaultValue: value });

export function useEnumLabel(): (kind: EnumKind, value: string) => string {
  const { t } = useTranslation();
  return (kind, value) => enumLabel(t, kind, value);
}

/** `{ value, label }` choices for a select whose values are of `kind`. */
export function useEnumOptions(): (kind: EnumKind, values: readonly string[]) => Array<{ value: string; label: string }> {
  const label = useEnumLabel();
  return (kind, values) => values.map((value) => ({ value, label: label(kind, value) }));
}

const KINDS = Object.keys(en.enums) as EnumKind[];

/**
 * The table for an enum of `values`: among those with a word for every value, the smallest (a table of
 * exactly these values first). Lower-case values recur with other meanings in other fields (`block` is a
 * PII mode, a policy action, a timeout action), so the closest table gives the field's own words.
 */
export function enumKindOf(values: readonly unknown[]): EnumKind | undefined {
  if (values.length === 0) return undefined;
  let best: EnumKind | undefined;
  for (const kind of KINDS) {
    const table = en.enums[kind];
    if (!values.every((v) => typeof v === 'string' && Object.hasOwn(table, v))) continue;
    if (!best || Object.keys(table).length < Object.keys(en.enums[best]).length) best = kind;
  }
  return best;
}

type Choice = { title?: string; properties?: { type?: { enum?: unknown[] } } };

/**
 * A copy of `schema` whose union choices told apart by a one-value `type` (exporter kinds, upstream auth
 * kinds; api/schemas.ts titles each by that value) are titled by the value's word: the form's selector
 * of the choice shows the word, and the chosen value is still the choice's `type`.
 */
export function choiceTitles<S>(schema: S, label: (kind: EnumKind, value: string) => string): S {
  return retitle(schema, label) as S;
}

function retitle(node: unknown, label: (kind: EnumKind, value: string) => string): unknown {
  if (Array.isArray(node)) return node.map((child) => retitle(child, label));
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    out[key] = retitle(value, label);
    if ((key !== 'oneOf' && key !== 'anyOf') || !Array.isArray(value)) continue;
    out[key] = (out[key] as Choice[]).map((choice) => {
      const values = choice?.properties?.type?.enum;
      const kind = Array.isArray(values) && values.length === 1 ? enumKindOf(values) : undefined;
      return kind ? { ...choice, title: label(kind, String(values![0])) } : choice;
    });
  }
  return out;
}

type Node = { enum?: unknown[]; properties?: Record<string, Node>; items?: Node; oneOf?: Node[]; anyOf?: Node[] };

/**
 * A uiSchema that gives every enum field of `schema` (at any depth) whose values have words those words
 * as `ui:enumNames` (keyed by value). The fields of a union's choices are named at the union's own level:
 * rjsf renders a choice with its parent's uiSchema (see withEnumNames for a parent that has one per choice).
 */
export function enumNames(schema: unknown, label: (kind: EnumKind, value: string) => string): UiSchema {
  const node = (schema ?? {}) as Node;
  let out: UiSchema = {};
  const kind = Array.isArray(node.enum) ? enumKindOf(node.enum) : undefined;
  if (kind) out['ui:enumNames'] = Object.fromEntries((node.enum as string[]).map((v) => [v, label(kind, v)]));
  for (const [name, prop] of Object.entries(node.properties ?? {})) {
    const child = enumNames(prop, label);
    if (Object.keys(child).length > 0) out[name] = child;
  }
  if (node.items && typeof node.items === 'object' && !Array.isArray(node.items)) {
    const child = enumNames(node.items, label);
    if (Object.keys(child).length > 0) out.items = child;
  }
  for (const choice of [...(node.oneOf ?? []), ...(node.anyOf ?? [])]) out = merged(out, enumNames(choice, label));
  return out;
}

/**
 * `ui` with the enum names of `names` added where `ui` says nothing else. A node of `ui` that has a
 * uiSchema per choice of a union (rjsf then uses that one instead of the node's) gets the names in each.
 */
export function withEnumNames(ui: UiSchema, names: UiSchema): UiSchema {
  const out = merged(names, ui);
  for (const choice of ['oneOf', 'anyOf'] as const) {
    if (Array.isArray(ui[choice])) out[choice] = (ui[choice] as UiSchema[]).map((entry) => withEnumNames(entry, stripChoices(names)));
  }
  for (const [key, value] of Object.entries(ui)) {
    if (isPlain(value) && isPlain(names[key])) out[key] = withEnumNames(value, names[key]);
  }
  return out;
}

function stripChoices(ui: UiSchema): UiSchema {
  const { oneOf: _one, anyOf: _any, ...rest } = ui;
  return rest;
}

/** `a` and `b` merged all the way down; `b` wins where both have a value that is not an object. */
function merged(a: UiSchema, b: UiSchema): UiSchema {
  const out: UiSchema = { ...a };
  for (const [key, value] of Object.entries(b)) out[key] = isPlain(value) && isPlain(out[key]) ? merged(out[key], value) : value;
  return out;
}

function isPlain(value: unknown): value is Record<string, unknown> {
  return Boolean(value) && typeof value === 'object' && !Array.isArray(value);
}
