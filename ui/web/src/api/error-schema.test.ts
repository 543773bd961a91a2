import { describe, expect, it } from 'vitest';
import { ApiError } from './client';
import { errorSchemaOf } from './error-schema';

describe('errorSchemaOf', () => {
  it('nests each detail under the field its dotted path names', () => {
    const error = new ApiError(400, 'VALIDATION_ERROR', 'invalid', [
      { path: 'match_value', message: 'must start with /' },
      { path: 'config.max_retries', message: 'too big' },
      { path: 'config.max_retries', message: 'not an integer' },
    ]);
    expect(errorSchemaOf(error)).toEqual({
      match_value: { __errors: ['must start with /'] },
      config: { max_retries: { __errors: ['too big', 'not an integer'] } },
    });
  });
  it("puts a rule's error on that item of the rules array (the content-policy tester's RE2 errors)", () => {
    const error = new ApiError(400, 'VALIDATION_ERROR', 'invalid', [{ path: 'rules.1.pattern', message: 'RE2 cannot compile this regex' }]);
    expect(errorSchemaOf(error)).toEqual({ rules: { 1: { pattern: { __errors: ['RE2 cannot compile this regex'] } } } });
  });
  it('has nothing for errors without details', () => {
    expect(errorSchemaOf(new ApiError(500, 'X', 'boom', []))).toBeUndefined();
    expect(errorSchemaOf(new Error('x'))).toBeUndefined();
  });
});
