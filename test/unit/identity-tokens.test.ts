import { describe, expect, it } from 'vitest';
import { dailyToken, personHash, utcDay } from '../../shared/core/identity/tokens';
import { agentFamily } from '../../shared/core/identity/agent';

const KEY = 'test-hash-key-0123456789abcdef';
const OTHER_KEY = 'another-hash-key-0123456789abc';
const HEX32 = /^[0-9a-f]{32}$/;
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** Every piece of an address that a hash must not carry: the whole, each octet run of two or more parts, each v6 group. */
function piecesOf(address: string): string[] {
  const parts = address.split(/[.:]/).filter((part) => part.length >= 3);
  const v4 = address.split('.');
  const runs = v4.length === 4 ? [v4.slice(0, 2).join('.'), v4.slice(0, 3).join('.'), v4.slice(1).join('.')] : [];
  return [address, ...runs, ...parts];
}

describe('the daily token', () => {
  // A day's secret as the store keeps it: 32 random bytes, hex.
  const SECRET = 'a1'.repeat(32);
  const family = agentFamily(CHROME);

  it('is 32 lowercase hex characters', () => {
    for (const address of ['203.0.113.7', '2001:db8::1', 'x']) expect(dailyToken(SECRET, address, family)).toMatch(HEX32);
  });

  it('is HMAC-SHA256 of "address|agent family" keyed by the day\'s secret, its first 16 bytes', async () => {
    const { createHmac } = await import('node:crypto');
    const expected = createHmac('sha256', SECRET).update(`203.0.113.7|${family}`).digest('hex').slice(0, 32);
    expect(dailyToken(SECRET, '203.0.113.7', family)).toBe(expected);
  });

  it("takes no HASH_KEY and no day: only the day's secret makes it, so it cannot be made again once that is deleted", () => {
    expect(dailyToken(SECRET, '203.0.113.7', family)).not.toBe(dailyToken(KEY, '203.0.113.7', family));
    expect(dailyToken('b2'.repeat(32), '203.0.113.7', family)).not.toBe(dailyToken(SECRET, '203.0.113.7', family));
  });

  it('is two visits for two browsers on one address, one for a browser that updates itself', () => {
    const token = dailyToken(SECRET, '203.0.113.7', family);
    expect(dailyToken(SECRET, '203.0.113.7', agentFamily(CHROME.replace('131.0.0.0', '132.0.0.0')))).toBe(token);
    expect(
      dailyToken(SECRET, '203.0.113.7', agentFamily('Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0')),
    ).not.toBe(token);
  });

  it('differs for another address', () => {
    expect(dailyToken(SECRET, '203.0.113.8', family)).not.toBe(dailyToken(SECRET, '203.0.113.7', family));
  });

  it('never contains the address or any part of it', () => {
    for (const address of ['203.0.113.7', '198.51.100.250', '2001:db8:abcd:12::1', '10.20.30.40']) {
      const token = dailyToken(SECRET, address, family);
      for (const piece of piecesOf(address)) expect(token).not.toContain(piece);
    }
  });

  it('has its day read as the UTC day, for now: 23:30 at UTC-5 is the next UTC day', () => {
    expect(utcDay(new Date('2026-10-23T23:30:00-05:00'))).toBe('2026-10-24');
  });
});

describe('the person hash', () => {
  const family = agentFamily(CHROME);

  it('is 32 lowercase hex characters', () => {
    expect(personHash(KEY, '203.0.113.7', family)).toMatch(HEX32);
    expect(personHash(KEY, '2001:db8::1', agentFamily(''))).toMatch(HEX32);
  });

  it('is the same every day: it takes no date', () => {
    const person = personHash(KEY, '203.0.113.7', family);
    expect(personHash(KEY, '203.0.113.7', family)).toBe(person);
    expect(personHash(KEY, '203.0.113.7', agentFamily(CHROME.replace('131.0.0.0', '132.0.0.0')))).toBe(person);
  });

  it('differs from the daily token of the same address on any day', () => {
    const person = personHash(KEY, '203.0.113.7', family);
    for (const day of ['2026-10-22', '2026-10-23', '2026-10-24']) {
      expect(dailyToken(`${day}-secret`, '203.0.113.7', family)).not.toBe(person);
    }
  });

  it('differs for another key, another address and another agent family', () => {
    const person = personHash(KEY, '203.0.113.7', family);
    expect(personHash(OTHER_KEY, '203.0.113.7', family)).not.toBe(person);
    expect(personHash(KEY, '203.0.113.8', family)).not.toBe(person);
    expect(personHash(KEY, '203.0.113.7', agentFamily('curl/8.0'))).not.toBe(person);
  });

  it('never contains the address or any part of it', () => {
    for (const address of ['203.0.113.7', '198.51.100.250', '2001:db8:abcd:12::1']) {
      const person = personHash(KEY, address, family);
      for (const piece of piecesOf(address)) expect(person).not.toContain(piece);
    }
  });
});
