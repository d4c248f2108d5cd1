import { describe, expect, it } from 'vitest';
import { hostingNetworks } from '../../adapters/files/networks';
import { HOSTING_ASNS, HOSTING_NETWORKS, hostingListKey } from '../../shared/core/identity/hosting';
import { encodeTable, readTable } from '../../shared/core/identity/network-table';
import { botReason, classify, type IdentityRules, type SeenRequest } from '../../shared/ingest/classify';
import { canonicalAddress } from '../../shared/core/identity/network';
import { DATA_CENTRES, PEOPLES_NETWORKS, RELAYS } from '../support/networks';

/** A day's secret as ingest reads it from the store. */
const DAY_SECRET = 'b7'.repeat(32);

const table = hostingNetworks();

const rules: IdentityRules = {
  hashKey: 'test-hash-key-0123456789abcdef',
  selfNetworks: [],
  selfAgentTag: 'headcount-self',
  ignoredPaths: [],
  networks: table,
};
const chrome = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const seen = (address: string, over: Partial<SeenRequest> = {}): SeenRequest => ({
  at: new Date('2026-10-23T10:00:00Z'),
  address: canonicalAddress(address),
  userAgent: chrome,
  path: '/',
  referrer: null,
  served_by: 'site',
  pageLoad: true,
  subject: null,
  operator: false,
  ...over,
});

describe('the network rule: a request from a hosting network is a bot', () => {
  it.each(DATA_CENTRES)('%s %s is hosting (AS%i)', (_provider, address, asn) => {
    expect(table.hostingAsn(canonicalAddress(address)!)).toBe(asn);
    const hit = classify(seen(address), rules, DAY_SECRET);
    expect(hit.counted && [hit.hit.bot, hit.hit.reason]).toEqual([true, 'network']);
  });

  it.each(PEOPLES_NETWORKS)('%s %s is people', (_isp, address) => {
    expect(table.hostingAsn(canonicalAddress(address)!)).toBeNull();
    const hit = classify(seen(address), rules, DAY_SECRET);
    expect(hit.counted && [hit.hit.bot, hit.hit.reason]).toEqual([false, null]);
  });

  it.each(RELAYS)('%s %s is not hosting: people browse through it', (_name, address) => {
    expect(table.hostingAsn(address)).toBeNull();
  });

  it('reads an IPv4-mapped IPv6 address as the IPv4 it carries, and no address or loopback as no network', () => {
    expect(table.hostingAsn(canonicalAddress('::ffff:3.5.140.2')!)).toBe(16509);
    expect(table.hostingAsn('127.0.0.1')).toBeNull();
    expect(table.hostingAsn('::1')).toBeNull();
    expect(table.hostingAsn('not an address')).toBeNull();
    expect(botReason(seen('x', { address: null }), '/', rules)).toBeNull();
  });

  it('an agent that names a bot, or a path that probes, is said first: the reason is the surer one', () => {
    const crawler = classify(
      seen('3.5.140.2', { userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' }),
      rules,
      DAY_SECRET,
    );
    const probe = classify(seen('3.5.140.2', { path: '/.env' }), rules, DAY_SECRET);
    expect([crawler.counted && crawler.hit.reason, probe.counted && probe.hit.reason]).toEqual(['agent', 'path']);
  });

  it('keeps one list: every AS once, no CDN or relay that carries people, and the table was built from it', () => {
    const all = HOSTING_NETWORKS.flatMap((network) => network.asns);
    expect(new Set(all).size).toBe(all.length);
    expect(HOSTING_ASNS.filter((asn) => [13335, 20940, 36183, 54113].includes(asn))).toEqual([]);
    expect(table.header).toMatchObject({ source: '@ip-location-db/asn', list: hostingListKey() });
    expect(table.header.ipv4).toBeGreaterThan(1000);
    expect(table.header.ipv6).toBeGreaterThan(100);
  });

  it('refuses a table built for another list, or bytes that are no table', () => {
    const bytes = encodeTable({ ipv4: [{ start: 1, end: 2, asn: 16509 }], ipv6: [] }, { source: 'test', version: '1', list: 'aaaaaaaa' });
    expect(readTable(bytes, 'aaaaaaaa').ok).toBe(true);
    expect(readTable(bytes, hostingListKey())).toMatchObject({ ok: false, reason: expect.stringContaining('another hosting list') });
    expect(readTable(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]), 'aaaaaaaa').ok).toBe(false);
  });

  it('finds both ends of a range and nothing just outside it, in IPv4 and IPv6', () => {
    const bytes = encodeTable(
      {
        ipv4: [
          { start: 10, end: 20, asn: 1 },
          { start: 30, end: 30, asn: 2 },
        ],
        ipv6: [{ start: 0x2001_0db8_0000_0000n, end: 0x2001_0db8_0000_ffffn, asn: 3 }],
      },
      { source: 'test', version: '1', list: 'x' },
    );
    const small = readTable(bytes, 'x');
    if (!small.ok) throw new Error(small.reason);
    const four = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
    expect([9, 10, 20, 21, 29, 30, 31].map((n) => small.table.hostingAsn(four(n)))).toEqual([null, 1, 1, null, null, 2, null]);
    expect(['2001:db8::1', '2001:db8:0:ffff:ffff::', '2001:db8:1::', '2001:db7:ffff:ffff::'].map((a) => small.table.hostingAsn(a))).toEqual(
      [3, 3, null, null],
    );
  });

  // A lookup's time is the bench's to print (`npm run bench ingest`: "the hosting-network lookup alone"), not a test's.
  it('answers every lookup alike, however often and in whatever order the addresses come (it keeps nothing between calls)', () => {
    const expected = new Map<string, number | null>([
      ...DATA_CENTRES.map(([, address, asn]) => [canonicalAddress(address)!, asn] as const),
      ...PEOPLES_NETWORKS.map(([, address]) => [canonicalAddress(address)!, null] as const),
    ]);
    const addresses = [...expected.keys()];
    // IPv4 and IPv6 interleaved, every address in every round, each round in another order (turned, and reversed).
    for (let round = 0; round < 20; round += 1) {
      const turned = addresses.map((_, i) => addresses[(i + round * 7) % addresses.length]!);
      for (const address of round % 2 ? turned.reverse() : turned)
        expect(table.hostingAsn(address), `${address}, round ${round}`).toBe(expected.get(address));
    }
  });
});
