import { describe, expect, it } from 'vitest';
import { bareHost, referrerGroup } from '../../shared/core/identity/referrer-groups';
import { referrerHost } from '../../shared/core/identity/referrer';

describe('the referrer table, host by host', () => {
  // Each referrer as a browser sends it, through the host keep-hits keeps, into its group on the card.
  it.each([
    ['https://www.linkedin.com/feed/', 'linkedin'],
    ['https://lnkd.in/abc123', 'linkedin'],
    ['https://m.linkedin.com/in/someone', 'linkedin'],
    ['https://github.com/someone/repo', 'github'],
    ['https://gist.github.com/someone/0123', 'github'],
    ['https://www.google.com/', 'search'],
    ['https://www.google.co.uk/', 'search'],
    ['https://www.google.com.au/', 'search'],
    ['https://news.google.de/', 'search'],
    ['https://www.bing.com/search', 'search'],
    ['https://duckduckgo.com/', 'search'],
    ['https://search.yahoo.com/', 'search'],
    ['https://www.ecosia.org/', 'search'],
    ['https://www.baidu.com/', 'search'],
    ['https://yandex.ru/', 'search'],
    ['https://blog.example.org/2026/a-post', 'other'],
    ['https://google.evil.example/', 'other'],
    ['https://notgoogle.com/', 'other'],
    ['https://github.com.evil.example/', 'other'],
    ['http://203.0.113.7/', 'other'],
  ])('%s is %s', (referrer, group) => {
    expect(referrerGroup(referrerHost(referrer, true))).toBe(group);
  });

  it('counts a page load with no referrer, or one that could not be read, as typed', () => {
    expect(referrerGroup(referrerHost(null, true))).toBe('typed');
    expect(referrerGroup(referrerHost('not a url', true))).toBe('typed');
    expect(referrerGroup(referrerHost('android-app://com.linkedin.android/', true))).toBe('typed');
  });

  it('reads a host with its www. or m. prefix and trailing dot taken off, for naming the other hosts once', () => {
    expect(bareHost('WWW.Blog.Example.org.')).toBe('blog.example.org');
    expect(bareHost('m.blog.example.org')).toBe('blog.example.org');
    expect(bareHost('www2.blog.example.org')).toBe('blog.example.org');
    expect(bareHost('web.example.org')).toBe('web.example.org');
  });
});
