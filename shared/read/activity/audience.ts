import { campaignFromKey } from '../../core/identity/campaign';
import type { RollupCounts } from '../../core/rollup/day-rollup';

/** `XX` is unknown, or kept before countries were. */
export interface CountryCount {
  country: string;
  visitor_days: number;
}

export interface NameCount {
  name: string;
  visitor_days: number;
}

export interface Devices {
  browsers: NameCount[];
  systems: NameCount[];
  types: NameCount[];
}

/** Null where that tag was absent. */
export interface CampaignCount {
  source: string | null;
  medium: string | null;
  campaign: string | null;
  page_loads: number;
}

export const mostFirst = <T>(counts: Record<string, number>, make: (name: string, count: number) => T): T[] =>
  Object.entries(counts)
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, count]) => make(name, count));

export function countriesOf(counts: Pick<RollupCounts, 'countries'>): CountryCount[] {
  return mostFirst(counts.countries, (country, count) => ({ country, visitor_days: count }));
}

/** A visitor-day counts under every browser its requests came with, so the sums can pass the total. */
export function devicesOf(counts: Pick<RollupCounts, 'browsers' | 'systems' | 'devices'>): Devices {
  const named = (map: Record<string, number>) => mostFirst(map, (name, count) => ({ name, visitor_days: count }));
  return { browsers: named(counts.browsers), systems: named(counts.systems), types: named(counts.devices) };
}

/** Scanners' and the site's own page loads are left out, as for sources. */
export function campaignsOf(counts: Pick<RollupCounts, 'campaigns'>): CampaignCount[] {
  return mostFirst(counts.campaigns, (key, pageLoads) => ({ ...campaignFromKey(key), page_loads: pageLoads }));
}
