/** As the period report groups page loads. */
export type ReferrerGroup = 'linkedin' | 'github' | 'search' | 'other' | 'typed';

/**
 * A domain matches itself and its subdomains; `google.*` is the brand on any country domain.
 * A host in no row is `other`, and no host kept is `typed`.
 */
const REFERRER_TABLE: ReadonlyArray<readonly [Exclude<ReferrerGroup, 'other' | 'typed'>, readonly string[]]> = [
  ['linkedin', ['linkedin.com', 'lnkd.in']],
  ['github', ['github.com']],
  [
    'search',
    [
      'google.*',
      'bing.com',
      'duckduckgo.com',
      'yahoo.*',
      'ecosia.org',
      'baidu.com',
      'yandex.*',
      'ya.ru',
      'startpage.com',
      'qwant.com',
      'search.brave.com',
      'kagi.com',
      'naver.com',
      'seznam.cz',
      'sogou.com',
      'ask.com',
      'aol.*',
    ],
  ],
];

// google.co.uk, google.com.au
const countrySecondLevel = /^(?:(?:co|com|org|net|ac|gov|edu|ne|or)\.)?[a-z]{2,3}$/;

/** Lowercased, no trailing dot, no `www.` or `m.` in front. */
export function bareHost(host: string): string {
  return host
    .trim()
    .toLowerCase()
    .replace(/\.$/, '')
    .replace(/^(?:www\d*\.|m\.)+/, '');
}

function matches(host: string, domain: string): boolean {
  if (!domain.endsWith('.*')) return host === domain || host.endsWith(`.${domain}`);
  const brand = domain.slice(0, -2);
  const at = host === brand ? -1 : host.startsWith(`${brand}.`) ? 0 : host.indexOf(`.${brand}.`);
  if (at === -1) return false;
  const suffix = host.slice(at === 0 ? brand.length + 1 : at + brand.length + 2);
  return countrySecondLevel.test(suffix);
}

/** No referrer kept is `typed`. */
export function referrerGroup(host: string | null | undefined): ReferrerGroup {
  if (!host) return 'typed';
  const bare = bareHost(host);
  for (const [group, domains] of REFERRER_TABLE) {
    if (domains.some((domain) => matches(bare, domain))) return group;
  }
  return 'other';
}
