import { describe, expect, it } from 'vitest';
import { errorLine } from '../../shared/core/errors';

describe('errorLine: what went wrong, in one line', () => {
  it("is an error's first message line, or any other value as text", () => {
    expect(errorLine(new Error('the store answered 503\nat somewhere'))).toBe('the store answered 503');
    expect(errorLine('a plain reason')).toBe('a plain reason');
  });

  it('names an error that has no message by its name and code, never an empty reason', () => {
    const closed = Object.assign(new Error(''), { code: 'ECONNRESET' });
    expect(errorLine(closed)).toBe('Error ECONNRESET');
    const aborted = new Error('');
    aborted.name = 'AbortError';
    expect(errorLine(aborted)).toBe('AbortError');
  });
});
