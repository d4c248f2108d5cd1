export const MAX_TAG_LENGTH = 40;

/** The only query parameters ever read; every other one is dropped before anything is hashed or queued. */
export const CAMPAIGN_TAGS = ['utm_source', 'utm_medium', 'utm_campaign', 'ref'] as const;

export interface Campaign {
  source: string | null;
  medium: string | null;
  campaign: string | null;
}

const CLEAN_TAG = /^(?:[a-z0-9._~+]|[a-z0-9._~+][a-z0-9._~+-]*[a-z0-9._~+])$/;

/** Every run of other characters becomes one `-`, so no `@`, `/`, `|`, space or control character travels. */
export function cleanTag(raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined) return null;
  const lower = raw.toLowerCase();
  // The common clean tag skips the Unicode pattern.
  const cleaned = CLEAN_TAG.test(lower) ? lower : lower.replace(/[^\p{L}\p{N}._~+-]+/gu, '-').replace(/^-+|-+$/g, '');
  // Cut by code points, so a letter outside the basic plane is never split in two.
  const kept = cleaned.length <= MAX_TAG_LENGTH ? cleaned : Array.from(cleaned).slice(0, MAX_TAG_LENGTH).join('').replace(/-+$/, '');
  return kept === '' ? null : kept;
}

function queryOf(path: string): string {
  const watermark = path.indexOf('?');
  if (watermark === -1) return '';
  const fragment = path.indexOf('#');
  if (fragment === -1) return path.slice(watermark + 1);
  return fragment < watermark ? '' : path.slice(watermark + 1, fragment);
}

/** `+` is a space, as a browser reads it; a broken escape stays as it stands. */
function decoded(value: string): string {
  if (!value.includes('%') && !value.includes('+')) return value;
  const spaced = value.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

function tagOf(pair: string): (typeof CAMPAIGN_TAGS)[number] | null {
  const equals = pair.indexOf('=');
  const name = decoded(equals === -1 ? pair : pair.slice(0, equals)).toLowerCase();
  return (CAMPAIGN_TAGS as readonly string[]).includes(name) ? (name as (typeof CAMPAIGN_TAGS)[number]) : null;
}

/** Keeps only the first pair of each campaign tag, so campaignOf reads the same campaign as from the whole address. */
export function campaignQuery(path: string): string {
  const query = queryOf(path);
  if (query === '') return '';
  const tags: string[] = [];
  const kept: string[] = [];
  for (const pair of query.split('&')) {
    const tag = tagOf(pair);
    // The pair is cut well past a tag's length, so what travels on is bounded.
    if (tag !== null && !tags.includes(tag)) {
      tags.push(tag);
      kept.push(pair.slice(0, 1024));
    }
  }
  return kept.length === 0 ? '' : `?${kept.join('&')}`;
}

/** `ref` stands in when there is no `utm_source`; the first of a repeated tag counts. */
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

/** `source|medium|campaign`, an absent tag empty. */
export const campaignKey = (campaign: Campaign): string =>
  [campaign.source ?? '', campaign.medium ?? '', campaign.campaign ?? ''].join('|');

export function campaignFromKey(key: string): Campaign {
  const [source = '', medium = '', campaign = ''] = key.split('|');
  return { source: source || null, medium: medium || null, campaign: campaign || null };
}
