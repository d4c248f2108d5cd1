import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import { loadCountryTable } from '../../adapters/files/countries';
import { agentFamily } from '../../shared/core/identity/agent';
import { campaignOf, cleanTag, MAX_TAG_LENGTH } from '../../shared/core/identity/campaign';
import { countryTable, UNKNOWN_COUNTRY } from '../../shared/core/identity/country';
import { deviceOf, UNKNOWN_DEVICE } from '../../shared/core/identity/device';

const agents = {
  chromeWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  firefoxLinux: 'Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0',
  safariIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  chromeAndroid: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  edgeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
  safariIpad:
    'Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
};

describe('the country of an address, from the packaged table', () => {
  const table = loadCountryTable();

  it('places well-known networks by their two-letter code, IPv4 and IPv6 (and IPv4-mapped IPv6 as its IPv4)', () => {
    expect(table.ranges.v4).toBeGreaterThan(100_000);
    expect(table.ranges.v6).toBeGreaterThan(100_000);
    expect(
      ['8.8.8.8', '193.99.144.80', '212.27.48.10', '133.242.0.3', '212.58.244.20', '::ffff:8.8.8.8'].map((a) => table.countryOf(a)),
    ).toEqual(['US', 'DE', 'FR', 'JP', 'GB', 'US']);
    expect(['2001:4860:4860::8888', '2a01:4f8::1'].map((a) => table.countryOf(a))).toEqual(['US', 'DE']);
  });

  it('answers XX for loopback, private, link-local, documentation and unreadable addresses, and for none', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '192.168.0.1',
      '172.16.5.4',
      '169.254.1.1',
      '203.0.113.7',
      '198.51.100.1',
      '::1',
      'fe80::1',
      'fd00::1',
      '2001:db8::1',
      'x',
      '',
    ]) {
      expect(table.countryOf(address)).toBe(UNKNOWN_COUNTRY);
    }
    expect(table.countryOf(null)).toBe(UNKNOWN_COUNTRY);
  });

  it("agrees with a plain reference over the package's other files (decimal IPv6, BigInt, ipaddr.js ranges) on random addresses", () => {
    const folder = join(require.resolve('@ip-location-db/geo-whois-asn-country/package.json'), '..');
    const reference = (name: string) =>
      readFileSync(join(folder, name), 'utf8')
        .trim()
        .split('\n')
        .map((line) => line.split(','))
        .map(([start, end, code]) => [BigInt(start!), BigInt(end!), code!.trim()] as const);
    const v4 = reference('geo-whois-asn-country-ipv4-num.csv');
    const v6 = reference('geo-whois-asn-country-ipv6-num.csv');
    const look = (rows: typeof v4, value: bigint) => {
      let low = 0;
      let high = rows.length - 1;
      while (low <= high) {
        const middle = (low + high) >>> 1;
        const [start, end, code] = rows[middle]!;
        if (value < start) high = middle - 1;
        else if (value > end) low = middle + 1;
        else return code;
      }
      return 'XX';
    };
    const expected = (address: string) => {
      const parsed = ipaddr.parse(address);
      if (parsed.range() !== 'unicast') return 'XX';
      const value = parsed.toByteArray().reduce((n, byte) => n * 256n + BigInt(byte), 0n);
      return look(parsed.kind() === 'ipv4' ? v4 : v6, value);
    };
    const addresses = fc.sample(
      fc.oneof(
        fc.ipV4(),
        fc.ipV6(),
        fc.ipV6().map((a) => `2a0${a.length % 10}:${a.split(':').slice(1).join(':')}`),
      ),
      { numRuns: 3000, seed: 14 },
    );
    const canonical = addresses
      .filter((a) => ipaddr.isValid(a))
      .map((a) => ipaddr.parse(a).toString())
      .filter((a) => !a.includes('.') || !a.includes(':'));
    for (const address of canonical) expect(table.countryOf(address), address).toBe(expected(address));
  });

  it('reads the CSV forms: ranges inclusive at both ends, gaps unknown, rows out of order sorted, bad rows skipped', () => {
    const small = countryTable(
      ['16777472,16778239,cn', '16777216,16777471,AU', 'nonsense', '16779264,16781311,A1', ''].join('\n'),
      ['2001:200::,2001:200:ffff:ffff:ffff:ffff:ffff:ffff,JP', '2001:250::,2001:250:ffff::,CN', 'zz::,::,DE'].join('\r\n'),
    );
    expect(small.ranges).toEqual({ v4: 3, v6: 2 });
    expect(['1.0.0.0', '1.0.0.255', '1.0.1.0', '1.0.3.255', '1.0.4.0', '1.0.8.1', '0.255.255.255'].map((a) => small.countryOf(a))).toEqual([
      'AU',
      'AU',
      'CN',
      'CN',
      'XX',
      'XX',
      'XX',
    ]);
    expect(['2001:200::', '2001:200:1234::1', '2001:201::', '2001:250:ffff::', '2001:250:ffff::1'].map((a) => small.countryOf(a))).toEqual([
      'JP',
      'JP',
      'XX',
      'CN',
      'XX',
    ]);
  });
});

describe('the device, from the agent family the person hash uses', () => {
  it('names browser, system and type in lowercase with no versions', () => {
    const of = (agent: string) => deviceOf(agentFamily(agent));
    expect(of(agents.chromeWindows)).toEqual({ browser: 'chrome', system: 'windows', device: 'desktop' });
    expect(of(agents.firefoxLinux)).toEqual({ browser: 'firefox', system: 'linux', device: 'desktop' });
    expect(of(agents.safariIphone)).toEqual({ browser: 'safari', system: 'ios', device: 'mobile' });
    expect(of(agents.chromeAndroid)).toEqual({ browser: 'chrome', system: 'android', device: 'mobile' });
    expect(of(agents.edgeWindows)).toEqual({ browser: 'edge', system: 'windows', device: 'desktop' });
    expect(of(agents.safariIpad)).toEqual({ browser: 'safari', system: 'ios', device: 'tablet' });
  });

  it('never carries the text of an agent no parser knows', () => {
    expect(deviceOf(agentFamily('curl/8.4.0'))).toEqual(UNKNOWN_DEVICE);
    expect(deviceOf(agentFamily(''))).toEqual(UNKNOWN_DEVICE);
    expect(deviceOf(agentFamily('my-secret-tool 1.2 (john@example.com)'))).toEqual(UNKNOWN_DEVICE);
  });
});

describe('the campaign of a page load: the four tags and nothing else', () => {
  it('reads utm_source, utm_medium, utm_campaign, lowercased, with ref as the source when utm_source is absent', () => {
    expect(campaignOf('/about?utm_source=LinkedIn&utm_medium=Social&utm_campaign=Spring+Launch&x=1', true)).toEqual({
      source: 'linkedin',
      medium: 'social',
      campaign: 'spring-launch',
    });
    expect(campaignOf('/?ref=ProductHunt', true)).toEqual({ source: 'producthunt', medium: null, campaign: null });
    expect(campaignOf('/?ref=a&utm_source=b', true)).toEqual({ source: 'b', medium: null, campaign: null });
    expect(campaignOf('https://example.com/p?UTM_SOURCE=news%20letter#utm_medium=x', true)).toEqual({
      source: 'news-letter',
      medium: null,
      campaign: null,
    });
  });

  it('is none on a request that is not a page load, with no tag, or with empty tags', () => {
    expect(campaignOf('/about?utm_source=x', false)).toBeNull();
    expect(campaignOf('/about?q=1&token=abc', true)).toBeNull();
    expect(campaignOf('/about?utm_source=&ref=', true)).toBeNull();
    expect(campaignOf('/about', true)).toBeNull();
  });

  it('cuts a tag short and lets no @, /, |, space or control character through', () => {
    expect(cleanTag('john.doe@example.com')).toBe('john.doe-example.com');
    expect(cleanTag('a/b|c d\n\te')).toBe('a-b-c-d-e');
    expect(cleanTag('x'.repeat(100))).toHaveLength(MAX_TAG_LENGTH);
    expect(Array.from(cleanTag('😀'.repeat(100)) ?? 'x').length).toBeLessThanOrEqual(MAX_TAG_LENGTH);
    expect(cleanTag('Ünïcödé')).toBe('ünïcödé');
    expect(cleanTag('%E0%A4%A')).toBe('e0-a4-a');
  });
});
