import { describe, expect, it } from 'vitest';
import { cleanPath, MAX_PATH_LENGTH } from '../../shared/core/identity/paths';

describe('the path as kept', () => {
  it('loses its query string and fragment', () => {
    expect(cleanPath('/about?x=1')).toBe('/about');
    expect(cleanPath('/about?email=jane@example.com&ip=203.0.113.7')).toBe('/about');
    expect(cleanPath('/about#team')).toBe('/about');
    expect(cleanPath('/p#a?b')).toBe('/p');
    expect(cleanPath('/search?')).toBe('/search');
    expect(cleanPath('?x=1')).toBe('/');
  });

  it('has @ percent-encoded', () => {
    expect(cleanPath('/users/@jane')).toBe('/users/%40jane');
    expect(cleanPath('/a@b@c')).toBe('/a%40b%40c');
    expect(cleanPath('/a@b')).not.toContain('@');
  });

  it('is only the path of an absolute URL', () => {
    expect(cleanPath('https://example.com/p/q?x=1')).toBe('/p/q');
    expect(cleanPath('http://jane@example.com:8080/p')).toBe('/p');
    expect(cleanPath('HTTPS://EXAMPLE.COM')).toBe('/');
  });

  it('starts with a slash even when it was sent without one', () => {
    expect(cleanPath('about')).toBe('/about');
    expect(cleanPath('')).toBe('/');
    expect(cleanPath('  /x  ')).toBe('/x');
  });

  it('is bounded in length, and the bound holds after @ is encoded', () => {
    expect(cleanPath(`/${'a'.repeat(5000)}`)).toHaveLength(MAX_PATH_LENGTH);
    expect(cleanPath(`/${'@'.repeat(1000)}`).length).toBeLessThanOrEqual(MAX_PATH_LENGTH);
  });

  it('never ends in an escape the cut broke in two', () => {
    for (let fill = MAX_PATH_LENGTH - 4; fill <= MAX_PATH_LENGTH; fill++) {
      const path = cleanPath(`/${'a'.repeat(fill)}@tail`);
      expect(path.length).toBeLessThanOrEqual(MAX_PATH_LENGTH);
      expect(path).not.toMatch(/%[0-9A-Fa-f]?$/);
    }
  });

  it('keeps a path that needs no cleaning as it is', () => {
    expect(cleanPath('/blog/post-1')).toBe('/blog/post-1');
    expect(cleanPath('/a%20b')).toBe('/a%20b');
  });
});
