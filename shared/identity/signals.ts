/**
 * The headers a browser sends on every request, which automation that only names itself a browser gets wrong. Each
 * is null when the request did not carry it. Only these are read, only to judge the request, and none of their values
 * goes further than this judgement.
 */
export interface RequestSignals {
  acceptLanguage: string | null;
  secFetchSite: string | null;
  secFetchMode: string | null;
  secFetchDest: string | null;
  secChUa: string | null;
}

/** The header names read, lowercased as HTTP headers arrive. */
export const SIGNAL_HEADERS = ['accept-language', 'sec-fetch-site', 'sec-fetch-mode', 'sec-fetch-dest', 'sec-ch-ua'] as const;

/** The signals from a header reader (the beacon's own request, or the headers a site's server forwarded). */
export function signalsFrom(header: (name: (typeof SIGNAL_HEADERS)[number]) => string | null | undefined): RequestSignals {
  const read = (name: (typeof SIGNAL_HEADERS)[number]) => {
    const value = header(name);
    return value === undefined || value === null || value.trim() === '' ? null : value;
  };
  return {
    acceptLanguage: read('accept-language'),
    secFetchSite: read('sec-fetch-site'),
    secFetchMode: read('sec-fetch-mode'),
    secFetchDest: read('sec-fetch-dest'),
    secChUa: read('sec-ch-ua'),
  };
}

/** Which combination gave automation away. */
export type SignalRule = 'headless' | 'no-language' | 'chromium-without-hints' | 'versions-disagree';

// An agent that claims a browser engine: every current browser's agent starts so, and so does automation's disguise.
const CLAIMS_BROWSER = /^Mozilla\/5\.0 \(.*\) (?:AppleWebKit|Gecko)\//;
const CHROME_MAJOR = /(?:^|[\s)])Chrome\/(\d+)\./;
// Android WebView (`; wv)`, or the older `Version/4.0 Chrome/`) and iOS browsers (WebKit underneath) send no client
// hints of their own, so they are never judged by the hints.
const NO_HINTS_OF_ITS_OWN = /; wv\)|Version\/\d+\.\d+ Chrome\/|iPhone|iPad|iPod/;
const HINTS_CHROMIUM = /"Chromium";v="(\d+)"/;

/** The major version of Chromium the agent claims, when it claims one that sends client hints (89 and later). */
function chromiumClaimed(userAgent: string): number | null {
  if (NO_HINTS_OF_ITS_OWN.test(userAgent)) return null;
  const major = CHROME_MAJOR.exec(userAgent);
  if (!major) return null;
  const version = Number(major[1]);
  return version >= 90 ? version : null;
}

/**
 * The rule a request breaks that no browser breaks, or null. Read only for an agent that claims a browser and is not a
 * bot by its own name:
 * - `headless`: the client hints name a headless browser;
 * - `no-language`: no Accept-Language, which every browser sends on every request, a beacon's too;
 * - `chromium-without-hints`: the agent claims Chromium 90 or later and the request carries fetch metadata (so it
 *   came from a secure context, where Chromium always sends `Sec-CH-UA`) but no client hints;
 * - `versions-disagree`: the agent's Chrome version is not the one the client hints say (a fixed agent string put on
 *   another Chromium, as automation does; a real browser's two always agree).
 */
export function automationSignal(userAgent: string, signals: RequestSignals): SignalRule | null {
  const agent = userAgent.trim();
  if (!CLAIMS_BROWSER.test(agent)) return null;
  if (signals.secChUa !== null && /headless/i.test(signals.secChUa)) return 'headless';
  if (signals.acceptLanguage === null) return 'no-language';
  const chromium = chromiumClaimed(agent);
  if (chromium === null) return null;
  const fetchMetadata = signals.secFetchSite !== null || signals.secFetchMode !== null || signals.secFetchDest !== null;
  if (signals.secChUa === null) return fetchMetadata ? 'chromium-without-hints' : null;
  const hinted = HINTS_CHROMIUM.exec(signals.secChUa);
  return hinted && Number(hinted[1]) !== chromium ? 'versions-disagree' : null;
}
