import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AuditRecord } from '../api/types';
import { testRenderer } from '../testing/render';
import { AuditFilters, AuditTable } from './AuditLog';

// In Russian.
vi.mock('react-i18next', async () => (await import('../testing/render')).reactI18next('ru'));
const view = testRenderer();
afterEach(() => view.unmount());

const record = (over: Partial<AuditRecord>): AuditRecord => ({
  id: '00000000-0000-4000-8000-000000000001', user_id: 'u1', user_email: 'a@example.org', user_role: 'admin', action: 'CREATE', resource_type: 'exporters',
  resource_id: null, request_method: 'POST', request_path: '/api/v1/exporters', request_body: null, response_status: 201, source_ip: null, timestamp: '2026-11-26T10:00:00Z', ...over,
});

/** Opens the Mantine select labelled `label` and answers the texts of its options. */
async function openSelect(container: HTMLElement, label: string): Promise<HTMLElement[]> {
  const labelEl = [...container.querySelectorAll('label')].find((l) => l.textContent === label)!;
  const input = document.getElementById(labelEl.htmlFor)!;
  await act(async () => input.click());
  const listbox = document.getElementById(input.getAttribute('aria-controls')!)!;
  return [...listbox.querySelectorAll<HTMLElement>('[role="option"]')];
}

describe('audit log', () => {
  it("shows a record's action and resource type as words, and keeps the API's values", async () => {
    const container = await view.render(<AuditTable items={[record({}), record({ id: '00000000-0000-4000-8000-000000000002', action: 'DELETE', resource_type: 'retention_settings' })]} />);
    const values = [...container.querySelectorAll('[data-value]')];
    expect(values.map((v) => v.textContent)).toEqual(['Создание', 'Экспортёры', 'Удаление', 'Хранение данных']);
    expect(values.map((v) => v.getAttribute('data-value'))).toEqual(['CREATE', 'exporters', 'DELETE', 'retention_settings']);
    expect(container.textContent).not.toMatch(/CREATE|retention_settings/);
  });

  it("offers the filters' actions and resource types as words and filters by the API's value", async () => {
    const changes: Array<[string, string | null]> = [];
    const container = await view.render(<AuditFilters onChange={(name, value) => changes.push([name, value])} />);
    const actions = await openSelect(container, 'Действие');
    expect(actions.map((o) => o.textContent)).toEqual(['Создание', 'Изменение', 'Удаление']);
    await act(async () => actions[2]!.click());
    const resources = await openSelect(container, 'Тип ресурса');
    // Every resource type the API documents, API keys included.
    expect(resources.map((o) => o.textContent)).toContain('API-ключи');
    await act(async () => resources.find((o) => o.textContent === 'Политики контента')!.click());
    expect(changes).toEqual([['action', 'DELETE'], ['resource_type', 'policies']]);
  });
});
