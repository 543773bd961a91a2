import { describe, expect, it } from 'vitest';
import { formatAxisDay, formatPeriodBound, formatTime } from './format';

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

describe('formatAxisDay', () => {
  it("writes a chart's day (the API's 2026-11-25) short in the console's language, the same day in every zone", () => {
    expect(formatAxisDay('2026-11-25', 'ru')).toBe('25 нояб.');
    expect(formatAxisDay('2026-11-25', 'en')).toBe('Nov 25');
    expect(formatAxisDay('2026-01-01', 'en')).toBe('Jan 1');
    expect(formatAxisDay('not a day', 'en')).toBe('not a day');
  });
});
