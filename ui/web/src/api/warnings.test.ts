import { describe, expect, it } from 'vitest';
import { warningsOf } from './client';

const answer = (warning?: string) => ({ headers: new Headers(warning === undefined ? {} : { warning }) });

describe('warningsOf', () => {
  it('reads each Warning: 299 text, several headers joined by fetch included', () => {
    const first = 'content safety on responses needs the whole answer: streamed answers are buffered';
    const second = 'a "quoted" word, and a comma';
    const joined = `299 - ${JSON.stringify(first)}, 299 - ${JSON.stringify(second)}`;
    expect(warningsOf(answer(joined))).toEqual([first, second]);
  });

  it('is empty without the header, and ignores other warn codes', () => {
    expect(warningsOf(answer())).toEqual([]);
    expect(warningsOf(answer('110 - "Response is Stale"'))).toEqual([]);
  });
});
