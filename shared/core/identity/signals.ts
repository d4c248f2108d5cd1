/** Headers browsers always send and automation gets wrong; they are read only to judge the request, null when absent. */
export interface RequestSignals {
  acceptLanguage: string | null;
  secFetchSite: string | null;
  secFetchMode: string | null;
  secFetchDest: string | null;
  secChUa: string | null;
  /**
   * `request`: the app's own request. `whole`: a site forwarded every header, so a missing one was missing.
   * `partial`: a selection, where a missing header says nothing.
   */
  seen: 'request' | 'whole' | 'partial';
  /** Chromium sends Sec-CH-UA-Mobile and Sec-CH-UA-Platform with Sec-CH-UA. */
  otherHints: boolean;
}

/** Lowercased, as HTTP headers arrive. */
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

/** Every client request carries one, so a forwarded set with one is whole. */
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

export function signalsFrom(header: (name: SignalHeader) => string | null | undefined): RequestSignals {
  return signalsOf((name) => present(header(name)), 'request');
}

/** Only the signal headers are read, their first 1024 characters; a list is how some frameworks give a repeated header. */
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

export type SignalRule = 'headless' | 'no-language' | 'chromium-without-hints' | 'versions-disagree';

// Every current browser's agent starts so, and so does automation's disguise.
const CLAIMS_BROWSER = /^Mozilla\/5\.0 \(.*\) (?:AppleWebKit|Gecko)\//;
const CHROME_MAJOR = /(?:^|[\s)])Chrome\/(\d+)\./;
// Android WebView and iOS browsers send no client hints of their own.
const NO_HINTS_OF_ITS_OWN = /; wv\)|Version\/\d+\.\d+ Chrome\/|iPhone|iPad|iPod/;
const HINTS_CHROMIUM = /"Chromium";v="(\d+)"/;

/** Null unless it claims Chromium 89 or later, which sends client hints. */
function chromiumClaimed(userAgent: string): number | null {
  if (NO_HINTS_OF_ITS_OWN.test(userAgent)) return null;
  const major = CHROME_MAJOR.exec(userAgent);
  if (!major) return null;
  const version = Number(major[1]);
  return version >= 90 ? version : null;
}

/**
 * Only for an agent that claims a browser and is no bot by name; a rule no browser breaks, or null.
 * - `headless`: the client hints name a headless browser.
 * - `no-language`: no Accept-Language, which every browser sends; not judged on a forwarded selection.
 * - `chromium-without-hints`: Chromium 90+ with fetch metadata but no client hints; on forwarded headers only when
 *   another hint came, since a proxy or plain HTTP may drop them all.
 * - `versions-disagree`: the agent's Chrome version differs from the hints', as when automation fixes its agent.
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
