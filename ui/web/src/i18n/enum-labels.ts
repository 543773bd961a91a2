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

/** The table that has a word for every one of `values`, if one has. */
export function enumKindOf(values: readonly unknown[]): EnumKind | undefined {
  if (values.length === 0) return undefined;
  return KINDS.find((kind) => values.every((v) => typeof v === 'string' && Object.hasOwn(en.enums[kind], v)));
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
