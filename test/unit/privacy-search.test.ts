import { describe, expect, it } from 'vitest';
import { spellings } from '../support/privacy';

// The privacy tests' own search: an address as one number is looked for only where it could not be chance.

describe('the address search the privacy tests make', () => {
  it('looks for an IPv4 address as one number only when it has eight digits or more', () => {
    expect(spellings('203.0.113.7')).toContain(String(203 * 2 ** 24 + 113 * 256 + 7));
    expect(spellings('::ffff:0.0.42.143')).not.toContain('10895');
    expect(spellings('::ffff:0.0.42.143')).toContain('0.0.42.143');
  });
});
