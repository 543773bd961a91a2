import { afterEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import { fireEvent, waitFor } from '@testing-library/react';
import type { RJSFSchema } from '@rjsf/utils';
import { bodySchema } from '../api/schemas';
import { SchemaForm } from './SchemaForm';
import { testRenderer } from '../testing/render';
import { isoFromLocal, localFromIso, parseTypedDate } from './dates';
import { InstantPicker } from './InstantPicker';

// In Russian.
vi.mock('react-i18next', async () => (await import('../testing/render')).reactI18next('ru'));
const view = testRenderer();
afterEach(() => view.unmount());

async function render(schema: RJSFSchema, formData: unknown, onChange: (data: unknown) => void = () => {}) {
  return view.render(<SchemaForm schema={schema} formData={formData} onChange={onChange} onSubmit={() => {}} />);
}

describe('date fields of the schema forms', () => {
  it("a report's period is a date picker in Russian: typed as 25.11.2026, sent as 2026-11-25, with a Russian calendar", async () => {
    const changes: unknown[] = [];
    const container = await render(bodySchema('/api/v1/reports', 'post')!, { type: 'INCIDENTS' }, (d) => changes.push(d));
    const start = container.querySelector<HTMLInputElement>('input[id="root_period_start"]')!;
    expect(start).not.toBeNull();
    await act(async () => fireEvent.focus(start));
    await act(async () => fireEvent.change(start, { target: { value: '25.11.2026' } }));
    expect(changes.at(-1)).toMatchObject({ period_start: '2026-11-25' });
    // The calendar opened for the field names its month in Russian and starts the week on Monday.
    // The dropdown mounts after its opening transition, a frame or more after the focus.
    const calendar = await waitFor(() => {
      const found = [...document.querySelectorAll('[class*="Popover-dropdown"]')].find((d) => d.querySelector('table'));
      if (!found) throw new Error('the calendar has not opened');
      return found;
    });
    expect(calendar.textContent).toMatch(/ноябрь 2026/i);
    const weekdays = [...calendar.querySelectorAll('th')].map((th) => th.textContent);
    expect(weekdays[0]).toMatch(/^пн$/i);
  });

  it('shows a stored date as people of the language write it', async () => {
    const container = await render(bodySchema('/api/v1/reports', 'post')!, { period_end: '2026-12-01' });
    expect(container.querySelector<HTMLInputElement>('input[id="root_period_end"]')!.value).toBe('01.12.2026');
  });

  it('a date-time field is a picker whose value is an ISO instant', async () => {
    const schema: RJSFSchema = { type: 'object', properties: { at: { type: 'string', format: 'date-time' } } };
    const iso = '2026-11-25T09:30:00.000Z';
    const container = await render(schema, { at: iso });
    const shown = container.querySelector('#root_at')!.textContent;
    expect(shown).toBe(`25.11.2026 ${localFromIso(iso)!.slice(11, 16)}`);
    expect(isoFromLocal(localFromIso(iso)!)).toBe(iso);
  });

  it("the time filters' picker shows an instant in the console's language and gives back an ISO instant", async () => {
    const iso = '2026-11-25T09:30:00.000Z';
    const container = await view.render(<InstantPicker label="С" value={iso} onChange={() => {}} />);
    expect(container.querySelector('button')!.textContent).toBe(`25.11.2026 ${localFromIso(iso)!.slice(11, 16)}`);
  });

  it('reads typed dates in the shown form or as ISO, and nothing else', () => {
    expect(parseTypedDate('25.11.2026', 'ru')).toBe('2026-11-25');
    expect(parseTypedDate('2026-11-25', 'ru')).toBe('2026-11-25');
    expect(parseTypedDate('25 Nov 2026', 'en')).toBe('2026-11-25');
    expect(parseTypedDate('31.02.2026', 'ru')).toBeNull();
    expect(parseTypedDate('yesterday', 'en')).toBeNull();
  });
});
