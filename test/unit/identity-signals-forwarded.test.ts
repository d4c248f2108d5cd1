import { describe, expect, it } from 'vitest';
import { automationSignal, forwardedSignals, signalsFrom } from '../../shared/core/identity/signals';
import { campaignOf, campaignQuery } from '../../shared/core/identity/campaign';
import { keptPath, MAX_PATH_LENGTH } from '../../shared/core/identity/paths';
import { AUTOMATION, REAL_BROWSERS } from '../support/browser-headers';

// Headers a site's server forwards are judged on what they can say: a selection, a proxy that drops the client hints,
// or a page served over plain HTTP never makes a Chrome visitor a bot.

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36';
/** A Chrome navigation's whole header set as an Express server sees it (req.headers), over HTTPS. */
const WHOLE = {
  host: 'www.example.com',
  connection: 'keep-alive',
  'user-agent': CHROME,
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  'accept-encoding': 'gzip, deflate, br, zstd',
  'accept-language': 'en-GB,en;q=0.9',
  'sec-ch-ua': '"Not)A;Brand";v="8", "Chromium";v="138", "Google Chrome";v="138"',
  'sec-ch-ua-mobile': '?0',
  'sec-ch-ua-platform': '"Windows"',
  'sec-fetch-site': 'none',
  'sec-fetch-mode': 'navigate',
  'sec-fetch-dest': 'document',
  'upgrade-insecure-requests': '1',
  cookie: `session=${'x'.repeat(4000)}`,
};
const without = (headers: Record<string, unknown>, ...names: string[]) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !names.includes(name)));

describe('forwarded headers are judged on what they can say', () => {
  it('a whole set from a real Chrome is a person, with any other header of any length or kind beside it', () => {
    expect(automationSignal(CHROME, forwardedSignals(WHOLE))).toBeNull();
    expect(automationSignal(CHROME, forwardedSignals({ ...WHOLE, 'x-many': ['a', 'b'], 'x-number': 3, 'x-null': null }))).toBeNull();
  });

  it('Chrome without any client hint (a proxy dropped the Sec-CH-* family, or a browser version that sends none) is a person', () => {
    expect(automationSignal(CHROME, forwardedSignals(without(WHOLE, 'sec-ch-ua', 'sec-ch-ua-mobile', 'sec-ch-ua-platform')))).toBeNull();
  });

  it('Chrome on a page served over plain HTTP (no hints, no fetch metadata) is a person', () => {
    const insecure = without(
      WHOLE,
      'sec-ch-ua',
      'sec-ch-ua-mobile',
      'sec-ch-ua-platform',
      'sec-fetch-site',
      'sec-fetch-mode',
      'sec-fetch-dest',
    );
    expect(automationSignal(CHROME, forwardedSignals(insecure))).toBeNull();
  });

  it('a selection of headers (no user-agent, no accept) is not judged for what it left out', () => {
    expect(automationSignal(CHROME, forwardedSignals({ 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate' }))).toBeNull();
    expect(forwardedSignals({ 'sec-fetch-site': 'none' }).seen).toBe('partial');
  });

  it('still finds automation where the headers say it: no language in a whole set, one hint without Sec-CH-UA, headless, versions that disagree', () => {
    expect(automationSignal(CHROME, forwardedSignals(without(WHOLE, 'accept-language')))).toBe('no-language');
    expect(automationSignal(CHROME, forwardedSignals(without(WHOLE, 'sec-ch-ua')))).toBe('chromium-without-hints');
    expect(automationSignal(CHROME, forwardedSignals({ ...WHOLE, 'sec-ch-ua': '"HeadlessChrome";v="138", "Chromium";v="138"' }))).toBe(
      'headless',
    );
    expect(automationSignal(CHROME, forwardedSignals({ ...WHOLE, 'sec-ch-ua': '"Chromium";v="120"' }))).toBe('versions-disagree');
  });

  it('reads names in any case and a repeated header given as a list', () => {
    const signals = forwardedSignals({ 'User-Agent': CHROME, 'Accept-Language': ['en-GB', 'en'], 'SEC-CH-UA': WHOLE['sec-ch-ua'] });
    expect(signals).toMatchObject({ seen: 'whole', acceptLanguage: 'en-GB, en', secChUa: WHOLE['sec-ch-ua'] });
  });

  it("judges every real browser's and automation's captured headers, forwarded whole, as on a beacon", () => {
    for (const set of REAL_BROWSERS)
      expect(automationSignal(set.headers['user-agent']!, forwardedSignals(set.headers)), set.name).toBeNull();
    for (const set of AUTOMATION.filter((one) => one.breaks !== 'agent' && one.breaks !== 'chromium-without-hints')) {
      expect(automationSignal(set.headers['user-agent']!, forwardedSignals(set.headers)), set.name).toBe(set.breaks);
    }
  });

  it("a beacon's own headers are the request itself: fetch metadata without hints is automation there", () => {
    const beacon = without(WHOLE, 'sec-ch-ua', 'sec-ch-ua-mobile', 'sec-ch-ua-platform') as Record<string, string>;
    expect(
      automationSignal(
        CHROME,
        signalsFrom((name) => beacon[name]),
      ),
    ).toBe('chromium-without-hints');
  });
});

describe('a long path is taken as kept, never refused', () => {
  it('drops the query but for the four campaign tags and cuts the path to the length kept', () => {
    expect(keptPath('/about?utm_source=news&id=42&x=1#top')).toBe('/about?utm_source=news');
    expect(keptPath(`/${'a'.repeat(5000)}?q=${'b'.repeat(1100)}&ref=hn`)).toBe(`/${'a'.repeat(MAX_PATH_LENGTH - 1)}?ref=hn`);
    expect(keptPath('/?REF=first&ref=second&utm_campaign=c&utm_medium=m')).toBe('/?REF=first&utm_campaign=c&utm_medium=m');
  });

  it('keeps the campaign the whole address carries', () => {
    for (const path of [
      '/?utm_source=LinkedIn&utm_medium=social&utm_campaign=launch',
      '/?ref=hn&utm_source=',
      `/x?${'z=1&'.repeat(500)}utm_medium=email`,
    ]) {
      expect(campaignOf(keptPath(path), true)).toEqual(campaignOf(path, true));
    }
    expect(campaignQuery('/plain')).toBe('');
  });
});
