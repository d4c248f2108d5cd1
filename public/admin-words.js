// @ts-check
// The dashboard's words: numbers, days, names of countries, browsers and sources, and how a figure moved. The words of
// a count come from the widget's script, so "1 person, 2 people" and "23 Oct" read the same on both surfaces.

/**
 * @typedef {object} PulseWords
 * @property {(n: number, one: string, many: string) => string} unitOf
 * @property {(n: number | null | undefined) => string} figure
 * @property {(day: string | null | undefined, today?: string | null) => string | null} dayWords
 */

/** @type {PulseWords} */
const pulseWords = /** @type {any} */ (customElements.get('headcount-pulse')).words;
export const { unitOf, figure } = pulseWords;

/** A day (YYYY-MM-DD) as "23 Oct", with its year when it is not the year of `today`. */
export const shortDay = (/** @type {string} */ day, /** @type {string | null | undefined} */ today = null) =>
  pulseWords.dayWords(day, today) ?? day;

/** A month (YYYY-MM) as "Nov 2026". */
export const monthWords = (/** @type {string} */ month) => pulseWords.dayWords(`${month}-01`, '0000')?.replace(/^1 /, '') ?? month;

/** A count and the unit that fits it: "0 visits", "1 visit", "2 visits". */
export const countWords = (/** @type {number} */ n, /** @type {string} */ one, /** @type {string} */ many) =>
  `${figure(n)} ${unitOf(n, one, many)}`;

/** Whether a text is a real UTC day as YYYY-MM-DD (not 2026-02-30). */
export const isDay = (/** @type {unknown} */ text) =>
  typeof text === 'string' &&
  /^\d{4}-\d{2}-\d{2}$/.test(text) &&
  !Number.isNaN(Date.parse(`${text}T00:00:00Z`)) &&
  new Date(`${text}T00:00:00Z`).toISOString().startsWith(text);

/** How many days from one day to another, both included. */
export const daysFrom = (/** @type {string} */ from, /** @type {string} */ to) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;

/** The day a number of days after (or before) another. */
/** An instant as the site's clock showed it: "23:50". */
export const clockTime = (/** @type {string} */ instant, /** @type {string} */ zone) =>
  new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(instant));

export const addDays = (/** @type {string} */ day, /** @type {number} */ n) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/**
 * How a figure moved against the period just before: "+12% on the 7 days before", "new (none in the 7 days before)",
 * or nothing when either figure was not read or there is no period before.
 * @param {number | null | undefined} now @param {number | null | undefined} then @param {string | null} before
 */
export function changeWords(now, then, before) {
  if (typeof now !== 'number' || typeof then !== 'number' || !before) return '';
  if (then === 0) return now === 0 ? `none in ${before} either` : `new (none in ${before})`;
  const percent = Math.round(((now - then) / then) * 100);
  if (percent === 0) return `about as many as ${before}`;
  return `${percent > 0 ? '+' : '−'}${Math.abs(percent)}% on ${before}`;
}

/** A rate's change as points, since a percent of a percent misleads. */
export function pointsWords(
  /** @type {number | null | undefined} */ now,
  /** @type {number | null | undefined} */ then,
  /** @type {string | null | undefined} */ before,
) {
  if (typeof now !== 'number' || typeof then !== 'number' || !before) return '';
  const points = Math.round(now - then);
  if (points === 0) return `the same as ${before}`;
  return `${points > 0 ? '+' : '−'}${Math.abs(points)} points on ${before}`;
}

/** Seconds as a visit's length: `45s`, `3m 05s`, `1h 02m`. */
export function durationWords(/** @type {number} */ seconds) {
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** The source groups as a site owner calls them. */
export const SOURCE_NAMES = {
  linkedin: 'LinkedIn',
  github: 'GitHub',
  search: 'Search engines',
  other: 'Other sites',
  typed: 'Direct (typed or unknown)',
};

// Browsers, systems and device types as their makers write them; the app keeps them lowercase, and the export keeps that.
/** @type {Record<string, string>} */
const MAKERS_NAMES = {
  chrome: 'Chrome',
  chromium: 'Chromium',
  firefox: 'Firefox',
  safari: 'Safari',
  edge: 'Edge',
  opera: 'Opera',
  'samsung internet': 'Samsung Internet',
  ie: 'Internet Explorer',
  vivaldi: 'Vivaldi',
  brave: 'Brave',
  'yandex browser': 'Yandex Browser',
  'uc browser': 'UC Browser',
  'qq browser': 'QQ Browser',
  'android browser': 'Android Browser',
  'amazon silk': 'Amazon Silk',
  'naver whale browser': 'NAVER Whale',
  duckduckgo: 'DuckDuckGo',
  electron: 'Electron',
  wechat: 'WeChat',
  windows: 'Windows',
  macos: 'macOS',
  ios: 'iOS',
  ipados: 'iPadOS',
  android: 'Android',
  linux: 'Linux',
  chromeos: 'ChromeOS',
  'windows phone': 'Windows Phone',
  webos: 'webOS',
  tizen: 'Tizen',
  blackberry: 'BlackBerry',
  'playstation 4': 'PlayStation 4',
  roku: 'Roku',
  desktop: 'Desktop',
  mobile: 'Mobile',
  tablet: 'Tablet',
  tv: 'TV',
  unknown: 'Unknown',
  other: 'Other',
};

/** A browser, system or device type as its maker writes it ("macos" is macOS); one the list does not know gets capitals. */
export const makersName = (/** @type {string} */ name) =>
  MAKERS_NAMES[name] ?? String(name).replace(/(^|[\s-])\p{Ll}/gu, (letter) => letter.toUpperCase());

const regionNames = (() => {
  try {
    return new Intl.DisplayNames(['en'], { type: 'region' });
  } catch {
    return null;
  }
})();

/** A country's name in English from its two-letter code ("DE" is Germany): XX is Unknown, a code Intl does not know stays a code. */
export function countryName(/** @type {string} */ code) {
  if (code === 'XX') return 'Unknown';
  try {
    const name = regionNames?.of(code);
    return name && name !== code ? name : code;
  } catch {
    return code;
  }
}

/** A campaign's three tags as one label, an absent tag named. */
export const campaignWords = (/** @type {{ source: string | null, medium: string | null, campaign: string | null }} */ c) =>
  [c.source ?? '(no source)', c.medium ?? '(no medium)', c.campaign ?? '(no campaign)'].join(' / ');

/** A campaign's key as a filter names it: its three tags joined by `|`, an absent one empty. */
export const campaignKey = (/** @type {{ source: string | null, medium: string | null, campaign: string | null }} */ c) =>
  [c.source ?? '', c.medium ?? '', c.campaign ?? ''].join('|');

/** A campaign key back as its label. */
export const campaignKeyWords = (/** @type {string} */ key) => {
  const [source = '', medium = '', campaign = ''] = key.split('|');
  return campaignWords({ source: source || null, medium: medium || null, campaign: campaign || null });
};
