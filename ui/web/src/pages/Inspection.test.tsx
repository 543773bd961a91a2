import { afterEach, describe, expect, it, vi } from 'vitest';
import type { InspectionCheck } from '../api/types';
import { testRenderer } from '../testing/render';
import { Inspection } from './Inspection';

const check = (over: Partial<InspectionCheck>): InspectionCheck => ({
  detector: 'threat', side: 'request', status: 'ok', model_version: null, score: null, threshold: null, latency_ms: null, findings: 0, fired_rules: [], reason: null, ...over,
});

// The console's English texts (testing/render.tsx says why the mock).
vi.mock('react-i18next', async () => (await import('../testing/render')).reactI18next('en'));
const view = testRenderer();
afterEach(() => view.unmount());

const renderChecks = (checks: InspectionCheck[]): Promise<HTMLElement> => view.render(<Inspection checks={checks} />);
const texts = (row: Element) => [...row.querySelectorAll('td, td *')].map((e) => e.textContent);

describe('Inspection', () => {

  it('shows each check: status, score against its threshold, latency, findings and fired rules', async () => {
    const container = await renderChecks([
      check({ detector: 'threat', score: 0.9123, threshold: 0.8, latency_ms: 12.34, model_version: 'threat-v3' }),
      check({ detector: 'content_policy', findings: 2, fired_rules: [{ policy_id: '0f1e2d3c-aaaa-bbbb-cccc-000000000000', rule_index: 1 }] }),
      check({ detector: 'content_safety', side: 'response', status: 'skipped', reason: 'off_in_profile' }),
      check({ detector: 'pii', status: 'skipped' }),
    ]);
    const rows = [...container.querySelectorAll('[data-testid="inspection-check"]')];
    expect(rows.map((r) => r.getAttribute('data-detector'))).toEqual(['threat', 'content_policy', 'content_safety', 'pii']);
    expect(texts(rows[0]!)).toEqual(expect.arrayContaining(['0.912 / 0.80', '12.3 ms', 'threat-v3', 'ran']));
    expect(rows.map((r) => r.querySelector('td')?.firstChild?.textContent), 'detectors named in words, not API names').toEqual(['Threat model', 'Content policies', 'Content safety', 'Personal data']);
    expect(rows[0]!.querySelector('[role="progressbar"]')?.getAttribute('aria-label')).toBe('Score of Threat model');
    expect(texts(rows[1]!)).toEqual(expect.arrayContaining(['policy 0f1e2d3c, rule #2']));
    expect(texts(rows[2]!)).toEqual(expect.arrayContaining(['skipped', 'response', '—']));
    expect(rows[2]!.querySelector('[data-testid="skip-reason"]')?.textContent, 'a skipped check says why').toBe('off in the profile');
    expect(rows[3]!.querySelector('[data-testid="skip-reason"]'), 'a record older than the reason shows none').toBeNull();
  });

  it('renders nothing for an event without checks', async () => {
    const container = await renderChecks([]);
    expect(container.querySelectorAll(':scope > :not(style)').length, 'only Mantine’s style tags').toBe(0);
  });
});
