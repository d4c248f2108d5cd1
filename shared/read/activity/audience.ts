import { campaignFromKey } from '../../core/identity/campaign';
import type { RollupCounts } from '../../core/rollup/day-rollup';

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

/** A count map's entries, most first, ties by name. */
export const mostFirst = <T>(counts: Record<string, number>, make: (name: string, count: number) => T): T[] =>
  Object.entries(counts)
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, count]) => make(name, count));

/** People's visitor-days by country, each visitor-day once, most first. */
export function countriesOf(counts: Pick<RollupCounts, 'countries'>): CountryCount[] {
  return mostFirst(counts.countries, (country, count) => ({ country, visitor_days: count }));
}

/**
 * People's visitor-days by browser, system and device type: a visitor-day counts once under every browser (system,
 * type) its requests came with, so one address on a phone and a laptop on a day is under both, and the sums can pass
 * the total. A visitor-day kept before devices were is under none.
 */
export function devicesOf(counts: Pick<RollupCounts, 'browsers' | 'systems' | 'devices'>): Devices {
  const named = (map: Record<string, number>) => mostFirst(map, (name, count) => ({ name, visitor_days: count }));
  return { browsers: named(counts.browsers), systems: named(counts.systems), types: named(counts.devices) };
}

/** People's page loads by campaign, most first; scanners' and the site's own page loads are left out, as for sources. */
export function campaignsOf(counts: Pick<RollupCounts, 'campaigns'>): CampaignCount[] {
  return mostFirst(counts.campaigns, (key, pageLoads) => ({ ...campaignFromKey(key), page_loads: pageLoads }));
}
