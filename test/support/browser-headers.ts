/**
 * Header sets of real browsers' beacons (navigator.sendBeacon, text/plain, cross-site) and of real automation's
 * requests. `captured` sets were read off the wire on this machine by a plain Node server (Debian's Chromium 156,
 * headless and with its agent as a headed window sends it, and Firefox ESR 153 headless, whose agent is the same as
 * a window's); `recorded` sets are the header sets current Safari, Edge and Chrome on Android send, written down as
 * they send them, since none of them runs on this machine. Only the headers the rules read, and the agent, are kept.
 */
export interface HeaderSet {
  name: string;
  how: 'captured' | 'recorded';
  headers: Record<string, string>;
}

export const REAL_BROWSERS: readonly HeaderSet[] = [
  {
    name: 'Firefox ESR 153 on Linux',
    how: 'captured',
    headers: {
      'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:153.0) Gecko/20100101 Firefox/153.0',
      'accept-language': 'en-US,en;q=0.9',
      'sec-fetch-dest': 'empty',
      'sec-fetch-mode': 'no-cors',
      'sec-fetch-site': 'cross-site',
    },
  },
  {
    name: "Chromium 156 on Linux, the agent a headed window sends (the browser tests' Chromium)",
    how: 'captured',
    headers: {
      'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
      'sec-ch-ua': '"Not:A-Brand";v="8", "Chromium";v="156"',
      'accept-language': 'en-US,en;q=0.9',
      'sec-fetch-site': 'cross-site',
      'sec-fetch-mode': 'no-cors',
      'sec-fetch-dest': 'empty',
    },
  },
  {
    name: 'Safari 18 on macOS',
    how: 'recorded',
    headers: {
      'user-agent': 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Safari/605.1.15',
      'accept-language': 'en-GB,en;q=0.9',
      'sec-fetch-site': 'cross-site',
      'sec-fetch-mode': 'no-cors',
      'sec-fetch-dest': 'empty',
    },
  },
  {
    name: 'Safari on iPhone (iOS 18)',
    how: 'recorded',
    headers: {
      'user-agent':
        'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1',
      'accept-language': 'fr-FR,fr;q=0.9',
      'sec-fetch-site': 'cross-site',
      'sec-fetch-mode': 'no-cors',
      'sec-fetch-dest': 'empty',
    },
  },
  {
    name: 'Chrome on iPhone (WebKit underneath: no client hints)',
    how: 'recorded',
    headers: {
      'user-agent':
        'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/138.0.7204.156 Mobile/15E148 Safari/604.1',
      'accept-language': 'en-US,en;q=0.9',
      'sec-fetch-site': 'cross-site',
      'sec-fetch-mode': 'no-cors',
      'sec-fetch-dest': 'empty',
    },
  },
  {
    name: 'Edge 138 on Windows',
    how: 'recorded',
    headers: {
      'user-agent':
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36 Edg/138.0.0.0',
      'sec-ch-ua': '"Not)A;Brand";v="8", "Chromium";v="138", "Microsoft Edge";v="138"',
      'accept-language': 'de-DE,de;q=0.9,en;q=0.8,en-GB;q=0.7,en-US;q=0.6',
      'sec-fetch-site': 'cross-site',
      'sec-fetch-mode': 'no-cors',
      'sec-fetch-dest': 'empty',
    },
  },
  {
    name: 'Chrome 138 on Android',
    how: 'recorded',
    headers: {
      'user-agent': 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Mobile Safari/537.36',
      'sec-ch-ua': '"Not)A;Brand";v="8", "Chromium";v="138", "Google Chrome";v="138"',
      'accept-language': 'es-ES,es;q=0.9',
      'sec-fetch-site': 'cross-site',
      'sec-fetch-mode': 'no-cors',
      'sec-fetch-dest': 'empty',
    },
  },
  {
    name: 'Samsung Internet 28 on Android',
    how: 'recorded',
    headers: {
      'user-agent':
        'Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-S921B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/28.0 Chrome/130.0.0.0 Mobile Safari/537.36',
      'sec-ch-ua': '"Chromium";v="130", "Samsung Internet";v="28.0", "Not?A_Brand";v="99"',
      'accept-language': 'ko-KR,ko;q=0.9',
      'sec-fetch-site': 'cross-site',
      'sec-fetch-mode': 'no-cors',
      'sec-fetch-dest': 'empty',
    },
  },
  {
    name: 'an in-app browser on Android (WebView: no client hints of its own)',
    how: 'recorded',
    headers: {
      'user-agent':
        'Mozilla/5.0 (Linux; Android 14; Pixel 8; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/138.0.7204.63 Mobile Safari/537.36',
      'accept-language': 'en-US,en;q=0.9',
      'sec-fetch-site': 'cross-site',
      'sec-fetch-mode': 'no-cors',
      'sec-fetch-dest': 'empty',
    },
  },
];

/** Automation that calls itself a browser, each with the rule it breaks ('agent' when its agent already names it). */
export const AUTOMATION: ReadonlyArray<HeaderSet & { breaks: string }> = [
  {
    name: "headless Chromium 156 as it comes (the browser tests' Chromium without its agent set)",
    how: 'captured',
    breaks: 'agent',
    headers: {
      'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36',
      'sec-ch-ua': '"Not:A-Brand";v="8", "Chromium";v="156"',
      'accept-language': 'en-US,en;q=0.9',
      'sec-fetch-site': 'cross-site',
      'sec-fetch-mode': 'no-cors',
      'sec-fetch-dest': 'empty',
    },
  },
  {
    name: 'Playwright driving Chromium 156 with a fixed Chrome 140 agent',
    how: 'captured',
    breaks: 'versions-disagree',
    headers: {
      'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36',
      'sec-ch-ua': '"Not:A-Brand";v="8", "Chromium";v="156"',
      'accept-language': 'en-US,en;q=0.9',
      'sec-fetch-site': 'cross-site',
      'sec-fetch-mode': 'no-cors',
      'sec-fetch-dest': 'empty',
    },
  },
  {
    name: 'curl with a Chrome agent',
    how: 'recorded',
    breaks: 'no-language',
    headers: {
      'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    },
  },
  {
    name: 'python-requests with a Firefox agent',
    how: 'recorded',
    breaks: 'no-language',
    headers: { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0' },
  },
  {
    name: 'a scraper that copies Chrome\u2019s agent and language and fetch metadata but not its client hints',
    how: 'recorded',
    breaks: 'chromium-without-hints',
    headers: {
      'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      'accept-language': 'en-US,en;q=0.9',
      'sec-fetch-site': 'cross-site',
      'sec-fetch-mode': 'no-cors',
      'sec-fetch-dest': 'empty',
    },
  },
  {
    name: 'Chrome 112 to 119 headless (new mode), whose hints named it',
    how: 'recorded',
    breaks: 'headless',
    headers: {
      'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/118.0.0.0 Safari/537.36',
      'sec-ch-ua': '"Chromium";v="118", "HeadlessChrome";v="118", "Not=A?Brand";v="99"',
      'accept-language': 'en-US,en;q=0.9',
      'sec-fetch-site': 'cross-site',
      'sec-fetch-mode': 'no-cors',
      'sec-fetch-dest': 'empty',
    },
  },
  {
    name: 'old headless Chrome (Puppeteer before 2023) with its agent rewritten, whose hints still name it',
    how: 'recorded',
    breaks: 'headless',
    headers: {
      'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/109.0.0.0 Safari/537.36',
      'sec-ch-ua': '"Not_A Brand";v="99", "HeadlessChrome";v="109", "Chromium";v="109"',
      'sec-fetch-site': 'cross-site',
      'sec-fetch-mode': 'no-cors',
      'sec-fetch-dest': 'empty',
    },
  },
];
