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

/** Every enum of the API's document, wherever it is (bodies, answers, query parameters), with the name it has there. */
function documentEnums(node: unknown, name = '', into: Array<[string, unknown[]]> = []): Array<[string, unknown[]]> {
  if (Array.isArray(node)) node.forEach((child) => documentEnums(child, name, into));
  else if (node && typeof node === 'object') {
    const { enum: values, name: parameter } = node as { enum?: unknown; name?: unknown };
    if (Array.isArray(values)) into.push([name, values]);
    for (const [key, child] of Object.entries(node)) {
      if (key === 'properties' && child && typeof child === 'object') Object.entries(child).forEach(([prop, schema]) => documentEnums(schema, prop, into));
      else documentEnums(child, typeof parameter === 'string' ? parameter : name, into);
    }
  }
  return into;
}

// Enums without an `enums` table, by name and first value. Names that read the same in every language:
// vendor ids, mapping presets, roles and permissions, HTTP methods, transports, formats, compressions,
// SASL mechanisms, the inspection's detector names. Values worded by their own screen's table: the
// inspection's status and skip reason (inspection.*), a policy test's reason (policies.reasons), the
// mapping tester's fields.
// Values no one picks: who manages a resource, the exporters list's status filter, the test answer's
// `ok`, the download's BOM flag.
const AS_IS = new Set<string>([
  'provider_type=vendor_a', 'mapping_preset=vendor_a_chat_completions', 'roles=admin', 'role=admin', 'role_name=admin', 'permissions=read',
  'request_method=POST', 'method=POST', 'transport=udp', 'protocol=udp', 'format=rfc5424', 'format=PDF', 'compression=snappy', 'sasl_mechanism=none',
  'detector=threat', 'status=ok', 'reason=off_in_profile', 'reason=rule_match', 'field=prompt_path',
  'managed_by=api', 'status=enabled', 'bom=0',
]);

const ruWords = (kind: EnumKind) => ru.enums[kind] as Record<string, string>;

describe('enum values as words', () => {
  it('every enum of the API document has words for all its values in English and Russian, or is one left as it is', () => {
    const covered = new Set<EnumKind>();
    const unworded: string[] = [];
    for (const [name, values] of documentEnums(openapi)) {
      const kind = enumKindOf(values);
      if (!kind) {
        if (!AS_IS.has(`${name}=${String(values[0])}`)) unworded.push(`${name}=${String(values[0])}`);
        continue;
      }
      covered.add(kind);
      for (const v of values) expect(ruWords(kind)[String(v)], `ru ${kind}.${String(v)}`).toBeTruthy();
    }
    expect([...new Set(unworded)]).toEqual([]);
    expect([...covered].sort()).toEqual((Object.keys(en.enums) as EnumKind[]).sort());
  });

  it("picks a field's own table where a value has other words elsewhere (block, monitor)", () => {
    expect(enumKindOf(['block', 'monitor'])).toBe('violationAction');
    expect(enumKindOf(['disabled', 'monitor', 'mask', 'block'])).toBe('responsePiiMode');
    expect(enumKindOf(['mask', 'block', 'redact', 'pseudonymize'])).toBe('piiMode');
    expect(enumKindOf(['pass', 'block'])).toBe('timeoutAction');
    expect(enumKindOf(['HEALTHY', 'UNHEALTHY'])).toBe('healthStatus');
    expect(enumKindOf(['snappy', 'none'])).toBeUndefined();
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

  it("the forms' lower-case options show words and keep the API's value: policy type, rule kind, PII modes, fail-safe, match type, auth and exporter kinds", async () => {
    const inputs = (container: HTMLElement) => Object.fromEntries([...container.querySelectorAll<HTMLInputElement>('input[id]')].map((i) => [i.id, i.value]));
    const policy = inputs(await view.render(<SchemaForm schema={bodySchema('/api/v1/content-policies', 'post')!} formData={{ name: 'p', type: 'blocklist', action: 'trust_pii', scope: 'both', rules: [{ kind: 'regex', pattern: 'x' }] }} onSubmit={() => {}} />));
    expect(policy).toMatchObject({ root_type: 'Чёрный список', root_action: 'Доверять персональным данным', root_scope: 'Запрос и ответ', root_rules_0_kind: 'Регулярное выражение' });
    await view.unmount();
    const profile = inputs(await view.render(<SchemaForm schema={bodySchema('/api/v1/profiles', 'post')!}
      formData={{ name: 'p', pii: { mode: 'redact' }, response_scanning: { pii_mode: 'monitor', action_on_content_violation: 'monitor', streaming: 'buffer' }, fail_safe: { mode: 'fail-closed' }, action_on_timeout: 'pass' }} onSubmit={() => {}} />));
    expect(profile).toMatchObject({
      root_pii_mode: 'Вырезать', root_response_scanning_pii_mode: 'Мониторинг', root_response_scanning_action_on_content_violation: 'Мониторинг',
      root_response_scanning_streaming: 'Дождаться ответа целиком', root_fail_safe_mode: 'Блокировать (fail-closed)', root_action_on_timeout: 'Пропустить',
    });
    await view.unmount();
    const provider = await view.render(<SchemaForm schema={bodySchema('/api/v1/providers', 'post')!} formData={{ name: 'p', match_type: 'host', upstream_auth: { type: 'bearer', token: 't' } }} onSubmit={() => {}} />);
    expect(inputs(provider)).toMatchObject({ root_match_type: 'Хост' });
    expect(Object.values(inputs(provider))).toContain('Bearer-токен');
    await view.unmount();
    const changes: unknown[] = [];
    const exporter = await view.render(<SchemaForm schema={bodySchema('/api/v1/exporters', 'post')!} formData={{ name: 'e', type: 'webhook', config: { url: 'http://127.0.0.1:9/' } }} onChange={(d) => changes.push(d)} onSubmit={() => {}} />);
    expect(Object.values(inputs(exporter))).toEqual(expect.arrayContaining(['Вебхук', 'Общее']));
    expect(exporter.innerHTML).not.toMatch(/value="(webhook|generic|blocklist)"/);
  });

  it('badges show words in the console language and keep the value for tests and colours', async () => {
    const container = await view.render(<><StatusBadge kind="resourceStatus" value="ACTIVE" /><StatusBadge kind="decision" value="BLOCK" /><SeverityBadge value="CRITICAL" /></>);
    const badges = [...container.querySelectorAll('[data-value]')];
    expect(badges.map((b) => b.textContent)).toEqual(['Действует', 'Заблокирован', 'Критическая']);
    expect(badges.map((b) => b.getAttribute('data-value'))).toEqual(['ACTIVE', 'BLOCK', 'CRITICAL']);
  });
});
