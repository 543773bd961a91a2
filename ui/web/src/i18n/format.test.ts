import { describe, expect, it } from 'vitest';
import { formatPeriodBound, formatTime } from './format';

describe('formatTime', () => {
  it("writes a time in the console's language, not the browser's", () => {
    const noon = '2026-11-26T12:00:00Z';
    expect(formatTime(noon, 'ru')).toMatch(/^26\.11\.2026, \d{2}:\d{2}:\d{2}$/);
    expect(formatTime(noon, 'en')).toMatch(/^11\/26\/2026, \d{1,2}:\d{2}:\d{2}\s?[AP]M$/);
  });

  it('writes a report period bound that is a day as that day, and an instant as a time', () => {
    expect(formatPeriodBound('2026-11-01', 'ru')).toBe('01.11.2026');
    expect(formatPeriodBound('2026-11-01', 'en')).toBe('11/1/2026');
    expect(formatPeriodBound('2026-11-26T12:00:00Z', 'ru')).toBe(formatTime('2026-11-26T12:00:00Z', 'ru'));
  });
});
