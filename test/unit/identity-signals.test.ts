import { describe, expect, it } from 'vitest';
import { botReason, classify, type IdentityRules, type SeenRequest } from '../../shared/ingest/classify';
import { automationSignal, signalsFrom } from '../../shared/core/identity/signals';
import { isBotAgent } from '../../shared/core/identity/agent';
import { AUTOMATION, REAL_BROWSERS, type HeaderSet } from '../support/browser-headers';

/** A day's secret as ingest reads it from the store. */
const DAY_SECRET = 'b7'.repeat(32);

const rules: IdentityRules = {
  hashKey: 'test-hash-key-0123456789abcdef',
  selfNetworks: [],
  selfAgentTag: 'headcount-self',
  ignoredPaths: [],
};
const signalsOf = (set: HeaderSet) => signalsFrom((name) => set.headers[name]);
const seen = (set: HeaderSet | null, userAgent = set?.headers['user-agent'] ?? ''): SeenRequest => ({
  at: new Date('2026-10-23T10:00:00Z'),
  address: '73.15.1.1',
  userAgent,
  path: '/',
  referrer: null,
  served_by: 'site',
  pageLoad: true,
  subject: null,
  operator: false,
  signals: set && signalsOf(set),
});

describe('the signals a browser sends', () => {
  it.each(REAL_BROWSERS.map((set) => [set.name, set.how, set] as const))('%s (%s) is a person', (_name, _how, set) => {
    expect(isBotAgent(set.headers['user-agent'])).toBe(false);
    expect(automationSignal(set.headers['user-agent']!, signalsOf(set))).toBeNull();
    const hit = classify(seen(set), rules, DAY_SECRET);
    expect(hit.counted && [hit.hit.bot, hit.hit.reason]).toEqual([false, null]);
  });

  it.each(AUTOMATION.map((set) => [set.name, set.breaks, set] as const))('%s is a bot: %s', (_name, breaks, set) => {
    const reason = botReason(seen(set), '/', rules);
    if (breaks === 'agent') expect(reason).toBe('agent');
    else {
      expect(automationSignal(set.headers['user-agent']!, signalsOf(set))).toBe(breaks);
      expect(reason).toBe('signals');
    }
  });

  it('judges nothing when the headers are not known (a site that forwards none): the agent alone says', () => {
    for (const set of AUTOMATION.filter((one) => one.breaks !== 'agent'))
      expect(botReason(seen(null, set.headers['user-agent']), '/', rules)).toBeNull();
  });

  it('judges only agents that claim a browser: a library or a crawler is said by its agent, not by its headers', () => {
    expect(
      automationSignal(
        'curl/8.5.0',
        signalsFrom(() => null),
      ),
    ).toBeNull();
    expect(botReason(seen(null, 'curl/8.5.0'), '/', rules)).toBe('agent');
  });

  it('reads the hints only where Chromium sends them: no fetch metadata (an insecure page) is no proof they were left out', () => {
    const chrome = REAL_BROWSERS.find((set) => set.name.startsWith('Chromium'))!;
    const insecure = { ...chrome, headers: { 'user-agent': chrome.headers['user-agent']!, 'accept-language': 'en' } };
    expect(automationSignal(insecure.headers['user-agent'], signalsOf(insecure))).toBeNull();
  });

  it('takes an empty header as missing', () => {
    expect(signalsFrom((name) => (name === 'accept-language' ? '  ' : null)).acceptLanguage).toBeNull();
  });
});
