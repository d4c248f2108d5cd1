import { describe, expect, it } from 'vitest';
import { referrerHost } from '../../shared/core/identity/referrer';

describe('the referrer as kept', () => {
  it('is kept only on a page load', () => {
    expect(referrerHost('https://www.linkedin.com/feed/', true)).toBe('www.linkedin.com');
    expect(referrerHost('https://www.linkedin.com/feed/', false)).toBeNull();
  });

  it('is only its lowercased host: no scheme, credentials, port, path or query', () => {
    expect(referrerHost('https://www.LinkedIn.COM/feed/?trk=abc#x', true)).toBe('www.linkedin.com');
    expect(referrerHost('https://jane:secret@Example.com:8443/p?q=1', true)).toBe('example.com');
    expect(referrerHost('http://github.com', true)).toBe('github.com');
  });

  it('is null when it is missing, unreadable or not http(s)', () => {
    for (const referrer of [
      null,
      undefined,
      '',
      'not a url',
      '/relative/path',
      'ftp://example.com/',
      'javascript:alert(1)',
      'android-app://com.google.android.gm/',
      'data:text/html,hi',
      'http://999.1.1.1/',
    ]) {
      expect(referrerHost(referrer, true), String(referrer)).toBeNull();
    }
  });

  it('keeps a host that is an address only as its network', () => {
    expect(referrerHost('http://203.0.113.7/admin', true)).toBe('203.0.113.x');
    expect(referrerHost('http://3405803783/', true)).toBe('203.0.113.x');
    expect(referrerHost('http://[2001:db8::1]:8080/x', true)).toBe('2001:db8:0:x');
    expect(referrerHost('http://[::ffff:203.0.113.7]/', true)).toBe('203.0.113.x');
  });

  it('is null for a host longer than DNS allows, so a hit always fits its schema', () => {
    expect(referrerHost(`https://${'a'.repeat(300)}.com/`, true)).toBeNull();
    expect(referrerHost(`https://${`${'a'.repeat(60)}.`.repeat(4)}com/`, true)).toBe(`${`${'a'.repeat(60)}.`.repeat(4)}com`);
  });
});
