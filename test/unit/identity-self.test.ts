import { describe, expect, it } from 'vitest';
import { classify, isSelf, type IdentityRules, type SeenRequest } from '../../shared/ingest/classify';

/** A day's secret as ingest reads it from the store. */
const DAY_SECRET = 'b7'.repeat(32);

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

const rules: IdentityRules = {
  hashKey: 'test-hash-key-0123456789abcdef',
  selfNetworks: ['10.20.0.0/16', '2001:db8:aaaa::/48'],
  selfAgentTag: 'headcount-self',
  ignoredPaths: ['/api/admin', '/admin'],
};

const request = (overrides: Partial<SeenRequest> = {}): SeenRequest => ({
  at: new Date('2026-10-23T10:00:00Z'),
  address: '203.0.113.7',
  userAgent: CHROME,
  path: '/about',
  referrer: null,
  served_by: 'site',
  pageLoad: true,
  subject: null,
  operator: false,
  ...overrides,
});

describe('the self rule', () => {
  it.each(['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1'])('a request from loopback %s is self', (address) => {
    expect(isSelf(request({ address }), rules)).toBe(true);
  });

  it('a request from a configured own IPv4 network is self, and only inside it', () => {
    expect(isSelf(request({ address: '10.20.0.1' }), rules)).toBe(true);
    expect(isSelf(request({ address: '10.20.255.254' }), rules)).toBe(true);
    expect(isSelf(request({ address: '::ffff:10.20.3.4' }), rules)).toBe(true);
    expect(isSelf(request({ address: '10.21.0.1' }), rules)).toBe(false);
    expect(isSelf(request({ address: '10.19.255.255' }), rules)).toBe(false);
  });

  it('a request from a configured own IPv6 network is self, and only inside it', () => {
    expect(isSelf(request({ address: '2001:db8:aaaa::1' }), rules)).toBe(true);
    expect(isSelf(request({ address: '2001:db8:aaaa:ffff:1:2:3:4' }), rules)).toBe(true);
    expect(isSelf(request({ address: '2001:db8:aaab::1' }), rules)).toBe(false);
  });

  it('an agent carrying the self tag is self, whatever its case', () => {
    expect(isSelf(request({ userAgent: `${CHROME} headcount-self` }), rules)).toBe(true);
    expect(isSelf(request({ userAgent: 'HeadCount-Self/1.0 (uptime probe)' }), rules)).toBe(true);
    expect(isSelf(request({ userAgent: 'headcount/1.0' }), rules)).toBe(false);
  });

  it('a request presenting the operator key or cookie is self, even without an address', () => {
    expect(isSelf(request({ operator: true }), rules)).toBe(true);
    expect(isSelf(request({ operator: true, address: null }), rules)).toBe(true);
  });

  it('anything else is not self', () => {
    expect(isSelf(request(), rules)).toBe(false);
    expect(isSelf(request({ address: null }), rules)).toBe(false);
    expect(isSelf(request({ address: '2001:db8::1' }), rules)).toBe(false);
    expect(isSelf(request({ address: '192.168.1.10' }), rules)).toBe(false);
    expect(isSelf(request(), { ...rules, selfNetworks: [] })).toBe(false);
  });

  it('gives a self hit no person hash, and a person one', () => {
    const self = classify(request({ address: '127.0.0.1' }), rules, DAY_SECRET);
    const person = classify(request(), rules, DAY_SECRET);
    expect(self).toMatchObject({ counted: true, hit: { self: true, person: null } });
    expect(person).toMatchObject({ counted: true, hit: { self: false } });
    expect(person.counted && person.hit.person).toMatch(/^[0-9a-f]{32}$/);
    for (const operatorHit of [
      classify(request({ operator: true }), rules, DAY_SECRET),
      classify(request({ userAgent: 'headcount-self' }), rules, DAY_SECRET),
    ]) {
      expect(operatorHit).toMatchObject({ counted: true, hit: { self: true, person: null } });
    }
  });
});

describe('classify: a request made into a hit that names nobody', () => {
  it("keeps loopback's network alone, so the machine's own requests stay one visit", () => {
    for (const [address, network] of [
      ['127.0.0.1', '127.0.0.x'],
      ['::1', '0:0:0:x'],
      ['10.20.0.5', 'x'],
      ['2001:db8::1', 'x'],
    ] as const) {
      const hit = classify(request({ address }), rules, DAY_SECRET);
      expect(hit.counted && hit.hit.network, address).toBe(network);
    }
  });

  it('keeps the token, person, cleaned path, bot flag and source, and no network beside them', () => {
    const result = classify(request({ path: '/about?x=1', referrer: 'https://www.LinkedIn.com/feed/' }), rules, DAY_SECRET);
    expect(result.counted).toBe(true);
    if (!result.counted) return;
    expect(result.hit).toMatchObject({
      at: '2026-10-23T10:00:00.000Z',
      network: 'x',
      path: '/about',
      bot: false,
      self: false,
      source: 'www.linkedin.com',
      served_by: 'site',
    });
    expect(JSON.stringify(result.hit)).not.toContain('203.0.113');
    expect(JSON.stringify(result.hit)).not.toContain('Chrome');
  });

  it('marks a hit as a bot by its agent or by what it asked for', () => {
    const byAgent = classify(request({ userAgent: 'curl/8.5.0' }), rules, DAY_SECRET);
    const byPath = classify(request({ path: '/wp-login.php' }), rules, DAY_SECRET);
    expect(byAgent.counted && byAgent.hit.bot).toBe(true);
    expect(byPath.counted && byPath.hit.bot).toBe(true);
  });

  it('does not count an asset or an ignored path, and says why', () => {
    expect(classify(request({ path: '/app.js' }), rules, DAY_SECRET)).toEqual({ counted: false, reason: 'asset' });
    expect(classify(request({ path: '/api/admin/visitors/people?x=1' }), rules, DAY_SECRET)).toEqual({
      counted: false,
      reason: 'ignored-path',
    });
  });
});
