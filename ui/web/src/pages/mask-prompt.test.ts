import { describe, expect, it } from 'vitest';
import { maskPrompt } from './mask-prompt';

describe('maskPrompt', () => {
  it('replaces every span by its mask, whatever order the entities come in', () => {
    const prompt = 'mail anna@example.com or call +7 916 123-45-67';
    const entities = [
      { start: 5, end: 21, masked: '[EMAIL]' },
      { start: 30, end: 46, masked: '[PHONE_NUMBER]' },
    ];
    expect(maskPrompt(prompt, entities)).toBe('mail [EMAIL] or call [PHONE_NUMBER]');
    expect(maskPrompt(prompt, [...entities].reverse())).toBe('mail [EMAIL] or call [PHONE_NUMBER]');
  });
  it('ignores spans outside the prompt', () => {
    expect(maskPrompt('short', [{ start: 3, end: 99, masked: 'X' }])).toBe('short');
  });
});
