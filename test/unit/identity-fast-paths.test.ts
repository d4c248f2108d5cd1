import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import { loadCountryTable } from '../../adapters/files/countries';
import { hostingNetworks } from '../../adapters/files/networks';
import { campaignOf, campaignQuery, cleanTag, MAX_TAG_LENGTH } from '../../shared/core/identity/campaign';
import { canonicalAddress, inNetworks, isLoopback, networkOf, parseAddress, withoutPort } from '../../shared/core/identity/network';
import { cleanPath, keptPath, MAX_PATH_LENGTH } from '../../shared/core/identity/paths';
import { MAX_HOST_LENGTH, referrerHost } from '../../shared/core/identity/referrer';
import { isoInstant, utcDay } from '../../shared/core/identity/tokens';

// Each rule that runs on every hit reads the common case without the general machinery (ipaddr.js, the URL parser,
// toISOString, Unicode patterns). Each is checked here against the plain reading it replaced, kept below as the
// reference, over generated inputs that mix the common case with everything near it.

const sample = <T>(arbitrary: fc.Arbitrary<T>, numRuns = 20_000) => fc.sample(arbitrary, { numRuns, seed: 24 });

/**
 * Each input whose answers by the fast path differ from the reference's, with both: none when they agree everywhere.
 * One assertion over all of them, not one an input: vitest's bookkeeping of 100,000 assertions cost more than the rules.
 */
function disagreements<T>(inputs: readonly T[], answers: (input: T) => { fast: unknown; reference: unknown }) {
  return inputs.flatMap((input) => {
    const { fast, reference } = answers(input);
    return isDeepStrictEqual(fast, reference) ? [] : [{ input, fast, reference }];
  });
}

describe('addresses, read without ipaddr.js when they are four dotted decimals', () => {
  const FOUR_PART = /^\d{1,3}(\.\d{1,3}){3}$/;
  const reference = (raw: string): ipaddr.IPv4 | ipaddr.IPv6 | null => {
    const address = withoutPort(raw).split('%')[0] ?? '';
    const readable = address.includes(':')
      ? ipaddr.IPv6.isValid(address)
      : FOUR_PART.test(address) && ipaddr.IPv4.isValidFourPartDecimal(address);
    if (!readable) return null;
    const parsed = ipaddr.parse(address);
    return parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress() ? (parsed as ipaddr.IPv6).toIPv4Address() : parsed;
  };
  const referenceNetwork = (raw: string) => {
    const parsed = reference(raw);
    if (parsed === null) return 'x';
    if (parsed.kind() === 'ipv4') return `${(parsed as ipaddr.IPv4).octets.slice(0, 3).join('.')}.x`;
    return `${(parsed as ipaddr.IPv6).parts
      .slice(0, 3)
      .map((part) => part.toString(16))
      .join(':')}:x`;
  };
  const part = fc.oneof(
    fc.integer({ min: 0, max: 300 }).map(String),
    fc.constantFrom('0', '00', '01', '010', '127', '255', '256', '999', '1000', '', ' ', 'a', '0x1', '-1', '1e2', '+1', '٣'),
  );
  const spellings = fc.oneof(
    fc.tuple(part, part, part, part).map((parts) => parts.join('.')),
    fc.tuple(part, part, part).map((parts) => parts.join('.')),
    fc.tuple(part, part, part, part, part).map((parts) => parts.join('.')),
    fc.ipV4().map((a) => `${a}:443`),
    fc.ipV4().map((a) => ` ${a}\t`),
    fc.ipV4().map((a) => `${a}%eth0`),
    fc.ipV4().map((a) => `::ffff:${a}`),
    fc.ipV6(),
    fc.ipV6().map((a) => `[${a}]:443`),
    fc.constantFrom('127.0.0.1', '::1', '[::1]', '[ ::1]', '[ 1.2.3.4 ]', '0.0.0.0', '255.255.255.255', '1.2.3.4.', '.1.2.3', 'x', '', '%'),
  );

  it('parses, spells, cuts to a network and finds loopback exactly as ipaddr.js does', () => {
    const differ = disagreements(sample(spellings), (raw) => {
      const expected = reference(raw);
      const parsed = parseAddress(raw);
      return {
        fast: [
          parsed === null ? null : [parsed.kind(), parsed.toString()],
          canonicalAddress(raw),
          networkOf(raw),
          isLoopback(raw),
          inNetworks(raw, []),
        ],
        reference: [
          expected === null ? null : [expected.kind(), expected.toString()],
          expected === null ? null : expected.toString(),
          referenceNetwork(raw),
          expected !== null && expected.range() === 'loopback',
          false,
        ],
      };
    });
    expect(differ).toEqual([]);
  });

  it('finds the same hosting network and country as the general path does', () => {
    const table = hostingNetworks();
    const countries = loadCountryTable();
    const differ = disagreements(sample(fc.ipV4(), 5_000), (address) => {
      // With leading zeros the address takes the pattern the table read before; the canonical one the fast path.
      const padded = address
        .split('.')
        .map((octet) => octet.padStart(3, '0'))
        .join('.');
      // IPv4-mapped, the address takes the general path: ipaddr.js, then the generic search.
      const unicast = ipaddr.parse(address).range() === 'unicast';
      return {
        fast: [table.hostingAsn(address), unicast ? countries.countryOf(address) : null],
        reference: [table.hostingAsn(padded), unicast ? countries.countryOf(`::ffff:${address}`) : null],
      };
    });
    expect(differ).toEqual([]);
  });
});

describe('a referrer’s host, read without the URL parser when it is plain', () => {
  const reference = (referrer: string | null | undefined, pageLoad: boolean): string | null => {
    if (!pageLoad || !referrer) return null;
    let host: string;
    try {
      const url = new URL(referrer);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
      host = url.hostname.toLowerCase();
    } catch {
      return null;
    }
    if (host === '' || host.length > MAX_HOST_LENGTH) return null;
    const literal = host.startsWith('[') ? host.slice(1, -1) : host;
    if (parseAddress(literal) !== null) return networkOf(literal);
    return host;
  };
  const label = fc
    .array(
      fc.constantFrom(
        'a',
        'Z',
        'q',
        '0',
        '9',
        '00',
        '-',
        '--',
        'x',
        'n',
        'xn--',
        'XN--',
        '0x',
        '0X',
        'f',
        'g',
        'com',
        'www',
        '1e',
        '_',
        '%41',
        'ß',
      ),
      {
        minLength: 1,
        maxLength: 4,
      },
    )
    .map((parts) => parts.join(''));
  const host = fc.oneof(
    fc.array(label, { minLength: 1, maxLength: 5 }).map((labels) => labels.join('.')),
    fc.ipV4(),
    fc.integer({ min: 60, max: 70 }).map((n) => `${'a'.repeat(n)}.example`),
    fc.integer({ min: 120, max: 130 }).map((n) => `${'ab.'.repeat(n)}com`),
  );
  const referrer = fc
    .tuple(
      fc.constantFrom('http://', 'https://', 'HTTPS://', 'HtTp://', 'ftp://', 'https:/', 'https:///', ' https://', 'javascript:', ''),
      host,
      fc.constantFrom('', '/', '/feed/', '?q=1', '#x', ':443/', ':99999', '@evil.example/', '\\x', ' /', '.', '..', '/a b'),
    )
    .map(([scheme, name, tail]) => scheme + name + tail);

  it('is what the URL parser says, for every referrer near the plain form', () => {
    expect(
      disagreements(sample(referrer, 30_000), (value) => ({ fast: referrerHost(value, true), reference: reference(value, true) })),
    ).toEqual([]);
  });

  it('keeps the common ones, and only on a page load', () => {
    expect(referrerHost('https://www.LinkedIn.com/feed/', true)).toBe('www.linkedin.com');
    expect(referrerHost('https://www.linkedin.com/feed/', false)).toBeNull();
    expect(referrerHost('http://203.0.113.7/', true)).toBe('203.0.113.x');
    expect(referrerHost(`https://${'ab.'.repeat(130)}com/`, true)).toBeNull();
  });
});

describe('instants, written without toISOString', () => {
  const instants = fc.oneof(
    fc.integer({ min: -8_640_000_000_000_000, max: 8_640_000_000_000_000 }),
    fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2100, 0, 1) }),
    fc.constantFrom(
      NaN,
      Date.UTC(999, 11, 31, 23, 59, 59, 999),
      Date.UTC(1000, 0, 1),
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
      Date.UTC(10000, 0, 1),
    ),
  );
  const written = (write: () => string) => {
    try {
      return write();
    } catch (error) {
      return `throws ${(error as Error).name}`;
    }
  };

  it('are exactly what toISOString writes (and its first ten characters), and throw where it throws', () => {
    const differ = disagreements(sample(instants), (time) => {
      const at = new Date(time);
      return {
        fast: [written(() => isoInstant(at)), written(() => utcDay(at))],
        reference: [written(() => at.toISOString()), written(() => at.toISOString().slice(0, 10))],
      };
    });
    expect(differ).toEqual([]);
  });
});

describe('paths and campaign tags, read without patterns when plain', () => {
  const referenceCleanTag = (raw: string | null | undefined): string | null => {
    if (raw === null || raw === undefined) return null;
    const cleaned = raw
      .toLowerCase()
      .replace(/[^\p{L}\p{N}._~+-]+/gu, '-')
      .replace(/^-+|-+$/g, '');
    const kept = Array.from(cleaned).slice(0, MAX_TAG_LENGTH).join('').replace(/-+$/, '');
    return kept === '' ? null : kept;
  };
  const referenceQuery = (path: string) => {
    const beforeFragment = path.split('#', 1)[0] ?? '';
    const mark = beforeFragment.indexOf('?');
    return mark === -1 ? '' : beforeFragment.slice(mark + 1);
  };
  const decoded = (value: string) => {
    const spaced = value.replace(/\+/g, ' ');
    try {
      return decodeURIComponent(spaced);
    } catch {
      return spaced;
    }
  };
  const TAGS = ['utm_source', 'utm_medium', 'utm_campaign', 'ref'];
  const nameOf = (pair: string) => {
    const equals = pair.indexOf('=');
    return decoded(equals === -1 ? pair : pair.slice(0, equals)).toLowerCase();
  };
  const referenceCampaignQuery = (path: string) => {
    const query = referenceQuery(path);
    if (query === '') return '';
    const kept = new Map<string, string>();
    for (const pair of query.split('&')) {
      const name = nameOf(pair);
      if (TAGS.includes(name) && !kept.has(name)) kept.set(name, pair.slice(0, 1024));
    }
    return kept.size === 0 ? '' : `?${[...kept.values()].join('&')}`;
  };
  const referenceCampaignOf = (path: string) => {
    const query = referenceQuery(path);
    if (query === '') return null;
    const found: Record<string, string> = {};
    for (const pair of query.split('&')) {
      const name = nameOf(pair);
      const equals = pair.indexOf('=');
      if (TAGS.includes(name) && found[name] === undefined) found[name] = equals === -1 ? '' : decoded(pair.slice(equals + 1));
    }
    const source = referenceCleanTag(found.utm_source) ?? referenceCleanTag(found.ref);
    const medium = referenceCleanTag(found.utm_medium);
    const campaign = referenceCleanTag(found.utm_campaign);
    return source === null && medium === null && campaign === null ? null : { source, medium, campaign };
  };
  const referenceCleanPath = (raw: string) => {
    let path = raw.trim();
    const absolute = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(path);
    if (absolute) path = path.slice(absolute[0].length);
    // A hash route (`#/about`) stays, without its own query or fragment.
    const route = /^([^?#]*)(#\/[^?#]*)?/.exec(path)!;
    path = route[1]! + (route[2] ?? '');
    if (!path.startsWith('/')) path = `/${path}`;
    const encoded = path.replace(/@/g, '%40');
    if (encoded.length <= MAX_PATH_LENGTH) return encoded;
    return encoded.slice(0, MAX_PATH_LENGTH).replace(/%[0-9A-Fa-f]?$/, '');
  };
  const piece = fc.constantFrom(
    'a',
    'Z',
    '0',
    '-',
    '_',
    '.',
    '~',
    '+',
    '%',
    '%2',
    '%20',
    '%E2%82%AC',
    '%ZZ',
    ' ',
    '@',
    '/',
    '|',
    'É',
    'İ',
    '😀',
    '\u0000',
    '&',
    '=',
    '?',
    '#',
    '#/',
    'utm_source',
    'UTM_Medium',
    'ref',
    'utm_campaign',
    'utm%5Fsource',
    'news-letter',
    'http://',
    'x'.repeat(45),
  );
  const text = fc.array(piece, { maxLength: 12 }).map((pieces) => pieces.join(''));
  const path = fc
    .tuple(
      fc.constantFrom('/', '/articles/3', 'https://example.com/a', 'p', ''),
      text,
      fc.constantFrom('', '?utm_source=x', '#f', '#/route?utm_source=x'),
    )
    .map((parts) => parts.join(''));

  it('cleans a tag exactly as the Unicode patterns do', () => {
    expect(disagreements(sample(text), (value) => ({ fast: cleanTag(value), reference: referenceCleanTag(value) }))).toEqual([]);
  });

  it('reads the campaign and the query kept exactly as before', () => {
    const differ = disagreements(sample(path), (value) => ({
      fast: [campaignOf(value, true), campaignQuery(value), cleanPath(value), keptPath(value)],
      reference: [
        referenceCampaignOf(value),
        referenceCampaignQuery(value),
        referenceCleanPath(value),
        referenceCleanPath(value) + referenceCampaignQuery(value),
      ],
    }));
    expect(differ).toEqual([]);
  });
});
