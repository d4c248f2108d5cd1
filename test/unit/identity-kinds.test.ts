import { describe, expect, it } from 'vitest';
import { whoOf, stronger, type Who } from '../../shared/core/identity/who';

describe('the kind rule', () => {
  it('a visitor whose every request looked like a bot is a scanner; one that did not is a person', () => {
    expect(whoOf(false, 3, 2)).toBe('people');
    expect(whoOf(false, 3, 3)).toBe('scanners');
    expect(whoOf(false, 1, 1)).toBe('scanners');
    expect(whoOf(false, 1, 0)).toBe('people');
  });

  it('the site itself is never a person, nor a scanner, whatever it asked for', () => {
    expect(whoOf(true, 3, 0)).toBe('self');
    expect(whoOf(true, 3, 3)).toBe('self');
  });

  it('the stronger wins when two sightings disagree: self > people > scanners', () => {
    expect(stronger('scanners', 'people')).toBe('people');
    expect(stronger('people', 'scanners')).toBe('people');
    expect(stronger('people', 'self')).toBe('self');
    expect(stronger('self', 'people')).toBe('self');
    expect(stronger('scanners', 'self')).toBe('self');
    expect(stronger('self', 'scanners')).toBe('self');
    const kinds: Who[] = ['self', 'people', 'scanners'];
    for (const kind of kinds) expect(stronger(kind, kind)).toBe(kind);
  });

  it('is the same whichever sighting comes first', () => {
    const kinds: Who[] = ['self', 'people', 'scanners'];
    for (const a of kinds) for (const b of kinds) expect(stronger(a, b)).toBe(stronger(b, a));
  });
});
