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
  /**
   * How much the set can say about a header it lacks. `request`: the app's own request (a beacon), every header as the
   * browser sent it. `whole`: a site's server forwarded its request's whole header set (it holds the headers every
   * request carries, User-Agent or Accept), so a missing Accept-Language was missing. `partial`: a selection, where a
   * missing header says nothing.
   */
  seen: 'request' | 'whole' | 'partial';
  /** Whether the request carried another low-entropy client hint (Sec-CH-UA-Mobile, Sec-CH-UA-Platform), which Chromium sends with Sec-CH-UA. */
  otherHints: boolean;
}

/** The header names read, lowercased as HTTP headers arrive. */
export const SIGNAL_HEADERS = [
  'accept-language',
  'sec-fetch-site',
  'sec-fetch-mode',
  'sec-fetch-dest',
  'sec-ch-ua',
  'sec-ch-ua-mobile',
  'sec-ch-ua-platform',
] as const;

type SignalHeader = (typeof SIGNAL_HEADERS)[number];

/** The headers whose presence says a forwarded set is the request's whole set: every client request carries one of them. */
const ALWAYS_SENT = ['user-agent', 'accept'] as const;

function signalsOf(read: (name: SignalHeader) => string | null, seen: RequestSignals['seen']): RequestSignals {
  return {
    acceptLanguage: read('accept-language'),
    secFetchSite: read('sec-fetch-site'),
    secFetchMode: read('sec-fetch-mode'),
    secFetchDest: read('sec-fetch-dest'),
    secChUa: read('sec-ch-ua'),
    seen,
    otherHints: read('sec-ch-ua-mobile') !== null || read('sec-ch-ua-platform') !== null,
  };
}

const present = (value: string | null | undefined) => (value === undefined || value === null || value.trim() === '' ? null : value);

/** The signals of the app's own request (a beacon's headers, read from the request itself). */
export function signalsFrom(header: (name: SignalHeader) => string | null | undefined): RequestSignals {
  return signalsOf((name) => present(header(name)), 'request');
}

/**
 * The signals in the headers a site's server forwarded with a hit (names in any case; a value a string, or a list of
 * strings as some frameworks give a repeated header; anything else is read as missing). Only the signal headers are
 * read, and only their first 1024 characters; the rest of the set is looked at only for whether it is whole.
 */
export function forwardedSignals(headers: Readonly<Record<string, unknown>>): RequestSignals {
  const lower = new Map<string, string | null>();
  for (const [name, value] of Object.entries(headers)) {
    const text =
      typeof value === 'string' ? value : Array.isArray(value) && value.every((part) => typeof part === 'string') ? value.join(', ') : null;
    lower.set(name.toLowerCase(), text === null ? null : present(text.slice(0, 1024)));
  }
  const whole = ALWAYS_SENT.some((name) => lower.has(name));
  return signalsOf((name) => lower.get(name) ?? null, whole ? 'whole' : 'partial');
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
 * bot by its own name, and only on what the headers can say (RequestSignals.seen):
 * - `headless`: the client hints name a headless browser;
 * - `no-language`: no Accept-Language, which every browser sends on every request, a beacon's too (not judged on a
 *   forwarded selection of headers, which may simply have left it out);
 * - `chromium-without-hints`: the agent claims Chromium 90 or later and the request carries fetch metadata (so it
 *   came from a secure context, where Chromium always sends `Sec-CH-UA`) but no client hints. On forwarded headers
 *   only when another client hint came without it: a site's server or proxy may drop the `Sec-CH-*` family whole,
 *   and a page served over plain HTTP gets none, so their absence alone says nothing of the visitor;
 * - `versions-disagree`: the agent's Chrome version is not the one the client hints say (a fixed agent string put on
 *   another Chromium, as automation does; a real browser's two always agree).
 */
export function automationSignal(userAgent: string, signals: RequestSignals): SignalRule | null {
  const agent = userAgent.trim();
  if (!CLAIMS_BROWSER.test(agent)) return null;
  if (signals.secChUa !== null && /headless/i.test(signals.secChUa)) return 'headless';
  if (signals.acceptLanguage === null && signals.seen !== 'partial') return 'no-language';
  const chromium = chromiumClaimed(agent);
  if (chromium === null) return null;
  const fetchMetadata = signals.secFetchSite !== null || signals.secFetchMode !== null || signals.secFetchDest !== null;
  if (signals.secChUa === null) {
    const missed = signals.seen === 'request' ? fetchMetadata : signals.seen === 'whole' && fetchMetadata && signals.otherHints;
    return missed ? 'chromium-without-hints' : null;
  }
  const hinted = HINTS_CHROMIUM.exec(signals.secChUa);
  return hinted && Number(hinted[1]) !== chromium ? 'versions-disagree' : null;
}
