/** The most characters a campaign tag keeps; the rest is cut. */
export const MAX_TAG_LENGTH = 40;

/** The query parameters ever read from a page's address; every other one is dropped before anything is hashed or queued. */
export const CAMPAIGN_TAGS = ['utm_source', 'utm_medium', 'utm_campaign', 'ref'] as const;

/** A page load's campaign: which source, medium and campaign its link was tagged with (null: not tagged). */
export interface Campaign {
  source: string | null;
  medium: string | null;
  campaign: string | null;
}

/** A tag with nothing to clean: ASCII letters, digits, `.`, `_`, `~`, `+` and inner `-`, none at either end. */
const CLEAN_TAG = /^(?:[a-z0-9._~+]|[a-z0-9._~+][a-z0-9._~+-]*[a-z0-9._~+])$/;

/**
 * One tag as kept: decoded, lowercased, every run of characters other than letters, digits, `.`, `_`, `~`, `+` and `-`
 * made one `-` (so no `@`, `/`, `|`, space or control character travels), trimmed of `-`, cut to MAX_TAG_LENGTH;
 * null when nothing is left.
 */
export function cleanTag(raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined) return null;
  const lower = raw.toLowerCase();
  // A tag that is already clean (the common `utm_source=newsletter`) is kept as it is, without the Unicode pattern.
  const cleaned = CLEAN_TAG.test(lower) ? lower : lower.replace(/[^\p{L}\p{N}._~+-]+/gu, '-').replace(/^-+|-+$/g, '');
  // Cut by code points, so a letter outside the basic plane is never split in two (a text of at most MAX_TAG_LENGTH
  // code units is at most that many code points, and already has no `-` at its end).
  const kept = cleaned.length <= MAX_TAG_LENGTH ? cleaned : Array.from(cleaned).slice(0, MAX_TAG_LENGTH).join('').replace(/-+$/, '');
  return kept === '' ? null : kept;
}

/** The query string of a path or URL as the page gave it (before `#`), or '' when it has none. */
function queryOf(path: string): string {
  const mark = path.indexOf('?');
  if (mark === -1) return '';
  const fragment = path.indexOf('#');
  if (fragment === -1) return path.slice(mark + 1);
  return fragment < mark ? '' : path.slice(mark + 1, fragment);
}

/** A query value decoded as a browser would (`+` a space); a broken escape is read as it stands. */
function decoded(value: string): string {
  // Nothing to decode: no escape and no `+` (decodeURIComponent changes nothing else).
  if (!value.includes('%') && !value.includes('+')) return value;
  const spaced = value.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/** Whether a query pair's name (as the page gave it) is one of the campaign tags, and which. */
function tagOf(pair: string): (typeof CAMPAIGN_TAGS)[number] | null {
  const equals = pair.indexOf('=');
  const name = decoded(equals === -1 ? pair : pair.slice(0, equals)).toLowerCase();
  return (CAMPAIGN_TAGS as readonly string[]).includes(name) ? (name as (typeof CAMPAIGN_TAGS)[number]) : null;
}

/**
 * The query a path keeps: the first pair of each campaign tag, as the page gave it, and nothing else ('' when it has
 * none), so campaignOf reads the same campaign from `path + campaignQuery(path)` as from the whole address.
 */
export function campaignQuery(path: string): string {
  const query = queryOf(path);
  if (query === '') return '';
  const tags: string[] = [];
  const kept: string[] = [];
  for (const pair of query.split('&')) {
    const tag = tagOf(pair);
    // A tag keeps MAX_TAG_LENGTH characters; the pair is cut well past that, so what travels on is bounded.
    if (tag !== null && !tags.includes(tag)) {
      tags.push(tag);
      kept.push(pair.slice(0, 1024));
    }
  }
  return kept.length === 0 ? '' : `?${kept.join('&')}`;
}

/**
 * The campaign a page load's address carries: `utm_source` (or `ref` when there is none), `utm_medium` and
 * `utm_campaign`, each cleaned by cleanTag; null when the request is not a page load or carries none of them. The
 * first value of a repeated tag counts. Nothing else in the query string is read.
 */
export function campaignOf(path: string, pageLoad: boolean): Campaign | null {
  if (!pageLoad) return null;
  const query = queryOf(path);
  if (query === '') return null;
  const found: Partial<Record<(typeof CAMPAIGN_TAGS)[number], string>> = {};
  for (const pair of query.split('&')) {
    const equals = pair.indexOf('=');
    const name = decoded(equals === -1 ? pair : pair.slice(0, equals)).toLowerCase();
    if (!(CAMPAIGN_TAGS as readonly string[]).includes(name)) continue;
    const key = name as (typeof CAMPAIGN_TAGS)[number];
    if (found[key] === undefined) found[key] = equals === -1 ? '' : decoded(pair.slice(equals + 1));
  }
  const source = cleanTag(found.utm_source) ?? cleanTag(found.ref);
  const medium = cleanTag(found.utm_medium);
  const campaign = cleanTag(found.utm_campaign);
  return source === null && medium === null && campaign === null ? null : { source, medium, campaign };
}

/** The key a campaign is counted under on a visitor-day (`source|medium|campaign`, an absent tag empty). */
export const campaignKey = (campaign: Campaign): string =>
  [campaign.source ?? '', campaign.medium ?? '', campaign.campaign ?? ''].join('|');

/** The campaign a key stands for. */
export function campaignFromKey(key: string): Campaign {
  const [source = '', medium = '', campaign = ''] = key.split('|');
  return { source: source || null, medium: medium || null, campaign: campaign || null };
}
