import { afterEach, describe, expect, it, vi } from 'vitest';
import openapi from '../api/openapi.json';
import { bodySchema } from '../api/schemas';
import { SchemaForm } from '../components/SchemaForm';
import { SeverityBadge, StatusBadge } from '../components/Severity';
import { testRenderer } from '../testing/render';
import { enumKindOf, enumNames, withEnumNames, type EnumKind } from './enum-labels';
import { en } from './en';
import { ru } from './ru';

vi.mock('react-i18next', async () => (await import('../testing/render')).reactI18next('ru'));
const view = testRenderer();
afterEach(() => view.unmount());

/** Every enum of the API's document, wherever it is (bodies, answers, query parameters). */
function documentEnums(node: unknown, into: unknown[][] = []): unknown[][] {
  if (Array.isArray(node)) node.forEach((child) => documentEnums(child, into));
  else if (node && typeof node === 'object') {
    const { enum: values } = node as { enum?: unknown };
    if (Array.isArray(values)) into.push(values);
    Object.values(node).forEach((child) => documentEnums(child, into));
  }
  return into;
}

const ruWords = (kind: EnumKind) => ru.enums[kind] as Record<string, string>;

describe('enum values as words', () => {
  it('every enum of the API document that has a value of a table has words for all its values, in English and Russian', () => {
    const kinds = Object.keys(en.enums) as EnumKind[];
    const covered = new Set<EnumKind>();
    for (const values of documentEnums(openapi)) {
      const kind = kinds.find((k) => values.some((v) => Object.hasOwn(en.enums[k], String(v)) && !/^[a-z]/.test(String(v))));
      if (!kind) continue;
      covered.add(kind);
      expect(enumKindOf(values), `${values.join(', ')} are all in ${kind}`).toBeDefined();
      for (const v of values) expect(ruWords(enumKindOf(values)!)[String(v)], `ru ${kind}.${String(v)}`).toBeTruthy();
    }
    expect([...covered].sort()).toEqual([...kinds].sort());
  });

  it("names the options of a form's enum fields at any depth: an exporter's event-type filter, a profile's event logging", () => {
    const label = (kind: EnumKind, value: string) => ruWords(kind)[value]!;
    const exporter = enumNames(bodySchema('/api/v1/exporters', 'post'), label) as { filters: { event_types: { items: Record<string, Record<string, string>> }; severities: { items: Record<string, Record<string, string>> } } };
    expect(exporter.filters.event_types.items['ui:enumNames']!.REQUEST_BLOCKED).toBe('Запрос заблокирован');
    expect(exporter.filters.severities.items['ui:enumNames']!.CRITICAL).toBe('Критическая');
    const profile = enumNames(bodySchema('/api/v1/profiles', 'post'), label) as { event_logging: { disabled_event_types: { items: Record<string, Record<string, string>> } } };
    expect(profile.event_logging.disabled_event_types.items['ui:enumNames']!.MONITOR_ALERT).toBe('Оповещение мониторинга');
    // A choice with its own uiSchema (rjsf then reads that one, not its parent's) gets the names too.
    const merged = withEnumNames({ filters: { 'ui:help': 'kept' }, oneOf: [{ 'ui:options': { label: false } }] }, exporter);
    expect((merged.oneOf as Array<typeof exporter>)[0]!.filters.event_types.items['ui:enumNames']!.RATE_LIMIT).toBe('Превышен лимит запросов');
    expect(merged.filters['ui:help']).toBe('kept');
  });

  it('a select in a form shows the word and keeps the API value', async () => {
    const changes: unknown[] = [];
    const container = await view.render(<SchemaForm schema={bodySchema('/api/v1/reports', 'post')!} formData={{ type: 'INCIDENTS' }} onChange={(d) => changes.push(d)} onSubmit={() => {}} />);
    const type = container.querySelector<HTMLInputElement>('input[id="root_type"]')!;
    expect(type.value).toBe('Инциденты');
    expect(container.innerHTML).not.toMatch(/>INCIDENTS</);
  });

  it('badges show words in the console language and keep the value for tests and colours', async () => {
    const container = await view.render(<><StatusBadge kind="resourceStatus" value="ACTIVE" /><StatusBadge kind="decision" value="BLOCK" /><SeverityBadge value="CRITICAL" /></>);
    const badges = [...container.querySelectorAll('[data-value]')];
    expect(badges.map((b) => b.textContent)).toEqual(['Действует', 'Заблокирован', 'Критическая']);
    expect(badges.map((b) => b.getAttribute('data-value'))).toEqual(['ACTIVE', 'BLOCK', 'CRITICAL']);
  });
});
