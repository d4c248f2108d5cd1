import { describe, expect, it } from 'vitest';
import { readSettings } from '../../host/settings';
import { beaconSite, hitSite, readSite } from '../../shared/core/sites/hit-site';
import { partitionKey, plainKey, scopeOf } from '../../shared/core/sites/keys';
import { allSitesZone, declaredSites, sitesSetting } from '../../shared/core/sites/sites';

const SITES = 'example.com=https://example.com,https://www.example.com|docs.example.org=https://docs.example.org|shop.example.net=';
const BASE = {
  HASH_KEY: 'test-hash-key-0123456789abcdef',
  INGEST_KEY: 'test-ingest-key-0123456789',
  OPERATOR_KEY: 'test-operator-key-0123456789',
  STORE: 'memory',
  AzureWebJobsStorage: 'UseDevelopmentStorage=true',
};

describe('SITES', () => {
  it('reads each name=origin,origin, the first first, a site without origins too', () => {
    expect(sitesSetting.parse(SITES)).toEqual([
      { name: 'example.com', origins: ['https://example.com', 'https://www.example.com'] },
      { name: 'docs.example.org', origins: ['https://docs.example.org'] },
      { name: 'shop.example.net', origins: [] },
    ]);
  });

  it('refuses a name that is no host, an origin with a path, a name twice and an origin of two sites, naming SITES', () => {
    for (const bad of [
      'Example.com=https://example.com',
      'a.example=https://a.example/path',
      'a.example=|a.example=',
      'a.example=https://x.example|b.example=https://x.example',
    ]) {
      const read = readSettings({ ...BASE, SITES: bad });
      expect(read.ok, bad).toBe(false);
      if (!read.ok) expect(read.problems.map((problem) => problem.setting)).toContain('SITES');
    }
  });

  it('is refused beside ALLOWED_ORIGINS, which alone still declares one site named by its first host', () => {
    const both = readSettings({ ...BASE, SITES, ALLOWED_ORIGINS: 'https://example.com' });
    expect(both.ok).toBe(false);
    if (!both.ok) expect(both.problems[0]!.setting).toBe('ALLOWED_ORIGINS');
    expect(declaredSites(undefined, ['https://www.example.com', 'https://example.com'])).toEqual([
      { name: 'www.example.com', origins: ['https://www.example.com', 'https://example.com'], zone: 'UTC' },
    ]);
    expect(declaredSites(undefined, [])).toEqual([{ name: 'site', origins: [], zone: 'UTC' }]);
  });
});

describe('TIME_ZONE and a site’s own zone', () => {
  it('gives every site TIME_ZONE (UTC when unset) but the one SITES gives its own with ;zone=', () => {
    const read = readSettings({ ...BASE, TIME_ZONE: 'America/New_York', SITES: `${SITES.replace('|docs', ';zone=Asia/Kolkata|docs')}` });
    expect(read.ok).toBe(true);
    if (read.ok)
      expect(declaredSites(read.settings.SITES, [], read.settings.TIME_ZONE).map((site) => [site.name, site.zone])).toEqual([
        ['example.com', 'Asia/Kolkata'],
        ['docs.example.org', 'America/New_York'],
        ['shop.example.net', 'America/New_York'],
      ]);
    const unset = readSettings(BASE);
    expect(unset.ok && unset.settings.TIME_ZONE).toBe('UTC');
  });

  it("gives all sites together the zone of *;zone=, else the first site's, and * is no site", () => {
    const read = readSettings({ ...BASE, SITES: `${SITES.replace('|docs', ';zone=Asia/Kolkata|docs')}|*;zone=Asia/Tokyo` });
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    const declared = declaredSites(read.settings.SITES, [], read.settings.TIME_ZONE);
    expect(declared.map((site) => site.name)).toEqual(['example.com', 'docs.example.org', 'shop.example.net']);
    expect(allSitesZone(read.settings.SITES, declared)).toBe('Asia/Tokyo');
    const without = sitesSetting.parse(SITES.replace('|docs', ';zone=Asia/Kolkata|docs'));
    expect(allSitesZone(without, declaredSites(without, []))).toBe('Asia/Kolkata');
  });

  it('stops start-up on a zone the platform does not know, naming the setting', () => {
    for (const [setting, env] of [
      ['TIME_ZONE', { TIME_ZONE: 'Europe/Atlantis' }],
      ['TIME_ZONE', { TIME_ZONE: '+05:30' }],
      ['SITES', { SITES: 'example.com=https://example.com;zone=Mars/Base' }],
      ['SITES', { SITES: 'example.com=https://example.com;tz=Europe/Paris' }],
      ['SITES', { SITES: `${SITES}|*;zone=Mars/Base` }],
      ['SITES', { SITES: `${SITES}|*` }],
      ['SITES', { SITES: `${SITES}|*=https://all.example;zone=Asia/Tokyo` }],
      ['SITES', { SITES: `${SITES}|*;zone=Asia/Tokyo|*;zone=Asia/Tokyo` }],
      ['SITES', { SITES: 'example.com=https://example.com|*;zone=Asia/Tokyo' }],
    ] as const) {
      const read = readSettings({ ...BASE, ...env });
      expect(read.ok, JSON.stringify(env)).toBe(false);
      if (!read.ok) expect(read.problems.map((problem) => problem.setting)).toEqual([setting]);
    }
  });
});

describe('GOALS that name their site', () => {
  it('reads name@site, lets two sites have a goal of one name, and refuses a site not declared, naming GOALS', () => {
    const read = readSettings({ ...BASE, SITES, GOALS: 'cart@shop.example.net=path:/cart|cart@example.com=event:cart|start=path:/start' });
    expect(read.ok).toBe(true);
    if (read.ok)
      expect(read.settings.GOALS.map((goal) => [goal.name, goal.site])).toEqual([
        ['cart', 'shop.example.net'],
        ['cart', 'example.com'],
        ['start', undefined],
      ]);
    for (const goals of ['cart@nowhere.example=path:/cart', 'cart=path:/cart|cart@example.com=path:/basket']) {
      const bad = readSettings({ ...BASE, SITES, GOALS: goals });
      expect(bad.ok, goals).toBe(false);
      if (!bad.ok) expect(bad.problems[0]!.setting).toBe('GOALS');
    }
  });
});

describe("a hit's, a beacon's and a read's site", () => {
  const sites = sitesSetting.parse(SITES)!;
  const one = [sites[0]!];

  it('takes a declared site, the only one when none is named, and refuses the rest naming the field', () => {
    expect(hitSite(undefined, one, 'site')).toEqual({ ok: true, value: 'example.com' });
    expect(hitSite('docs.example.org', sites, 'hits.2.site')).toEqual({ ok: true, value: 'docs.example.org' });
    for (const [named, path] of [
      [undefined, 'site'],
      ['elsewhere.example', 'hits.0.site'],
    ] as const) {
      const read = hitSite(named, sites, path);
      expect(read.ok).toBe(false);
      if (!read.ok) expect(read.failure.issues?.[0]?.path).toBe(path);
    }
  });

  it("reads a beacon's site from its origin, or from data-site when that site takes the origin", () => {
    expect(beaconSite(undefined, 'https://www.example.com', sites)).toEqual({ ok: true, value: 'example.com' });
    expect(beaconSite('docs.example.org', 'https://docs.example.org', sites)).toEqual({ ok: true, value: 'docs.example.org' });
    expect(beaconSite('docs.example.org', 'https://example.com', sites).ok).toBe(false);
    expect(beaconSite('nowhere.example', 'https://example.com', sites).ok).toBe(false);
  });

  it('reads the only site, or the first declared when several, unless a read names one or all of them', () => {
    expect(readSite(null, one)).toEqual({ ok: true, value: 'example.com' });
    expect(readSite(null, sites)).toEqual({ ok: true, value: 'example.com' });
    expect(readSite('*', sites)).toEqual({ ok: true, value: '*' });
    expect(readSite('shop.example.net', sites)).toEqual({ ok: true, value: 'shop.example.net' });
    expect(readSite('nowhere.example', sites).ok).toBe(false);
  });
});

describe('the partition keys', () => {
  it("keeps the first site's keys as one site's, and puts every other site's name before its own", () => {
    const first = scopeOf('example.com', 'example.com');
    const docs = scopeOf('docs.example.org', 'example.com');
    const all = scopeOf('*', 'example.com');
    for (const pk of ['visitors', '2026-10-23', 'months', 'cells:page:0123', 'subject:tree-1', 'goal:signup']) {
      expect(partitionKey(first, pk)).toBe(pk);
      expect(partitionKey(docs, pk)).toBe(`docs.example.org|${pk}`);
      expect(partitionKey(all, pk)).toBe(`*|${pk}`);
      expect(plainKey(docs, partitionKey(docs, pk))).toBe(pk);
    }
  });
});
