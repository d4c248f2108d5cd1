import { campaignFromKey } from '../identity/campaign';
import { UNKNOWN_COUNTRY } from '../identity/country';
import { sumCounts, type TokenDay } from './token-days';

/** People's visitor-days by country, most first (`XX`: unknown, or kept before countries were). */
export interface CountryCount {
  country: string;
  visitor_days: number;
}

/** A browser, system or device type with the people's visitor-days that used it. */
export interface NameCount {
  name: string;
  visitor_days: number;
}

/** People's visitor-days by browser, by system and by device type. */
export interface Devices {
  browsers: NameCount[];
  systems: NameCount[];
  types: NameCount[];
}

/** People's page loads by campaign (null: that tag was absent), most first. */
export interface CampaignCount {
  source: string | null;
  medium: string | null;
  campaign: string | null;
  page_loads: number;
}

const mostFirst = <T>(entries: Array<[string, number]>, make: (name: string, count: number) => T): T[] =>
  entries.sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0)).map(([name, count]) => make(name, count));

const people = (visitorDays: readonly TokenDay[]) => visitorDays.filter((visitorDay) => visitorDay.kind === 'people');

/** The country of a visitor-day: its daily token is one address, so its documents agree; the first one that knows says. */
export function countryOfDay(visitorDay: TokenDay): string {
  return visitorDay.docs.find((doc) => doc.country !== undefined)?.country ?? UNKNOWN_COUNTRY;
}

/** People's visitor-days by country, each visitor-day once, most first. */
export function countriesOf(visitorDays: readonly TokenDay[]): CountryCount[] {
  const counts: Record<string, number> = {};
  for (const visitorDay of people(visitorDays)) {
    const country = countryOfDay(visitorDay);
    counts[country] = (counts[country] ?? 0) + 1;
  }
  return mostFirst(Object.entries(counts), (country, count) => ({ country, visitor_days: count }));
}

/** The names a visitor-day used (any request with it, on any store) of one of its count maps. */
export function namesOfDay(visitorDay: TokenDay, field: 'browsers' | 'systems' | 'devices'): string[] {
  return Object.keys(sumCounts(visitorDay.docs.map((doc) => doc[field] ?? {})));
}

/**
 * People's visitor-days by each name they used: a visitor-day counts once under every browser (system, type) its
 * requests came with, so one address on a phone and a laptop on a day is under both, and the sums can pass the total.
 * A visitor-day kept before devices were is under none.
 */
function byName(visitorDays: readonly TokenDay[], field: 'browsers' | 'systems' | 'devices'): NameCount[] {
  const counts: Record<string, number> = {};
  for (const visitorDay of visitorDays) for (const name of namesOfDay(visitorDay, field)) counts[name] = (counts[name] ?? 0) + 1;
  return mostFirst(Object.entries(counts), (name, count) => ({ name, visitor_days: count }));
}

/** People's visitor-days by browser, system and device type. */
export function devicesOf(visitorDays: readonly TokenDay[]): Devices {
  const shown = people(visitorDays);
  return { browsers: byName(shown, 'browsers'), systems: byName(shown, 'systems'), types: byName(shown, 'devices') };
}

/** People's page loads by campaign, most first; scanners' and the site's own page loads are left out, as for sources. */
export function campaignsOf(visitorDays: readonly TokenDay[]): CampaignCount[] {
  const counts = sumCounts(people(visitorDays).flatMap((visitorDay) => visitorDay.docs.map((doc) => doc.campaigns ?? {})));
  return mostFirst(Object.entries(counts), (key, pageLoads) => ({ ...campaignFromKey(key), page_loads: pageLoads }));
}
