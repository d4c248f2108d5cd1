import { campaignFromKey } from '../../core/identity/campaign';
import type { RollupCounts } from '../../core/store/rollups';
import { NAMES, type Dimension, type ExportedRow, type NamesCard } from '../../core/dimensions';

/** `XX` is unknown, or kept before countries were. */
export interface CountryCount {
  country: string;
  visitor_days: number;
}

export interface NameCount {
  name: string;
  visitor_days: number;
}

/** Each `names` dimension's list: browsers, systems, types. */
export type Devices = Record<NamesCard, NameCount[]>;

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

const named = (map: Record<string, number>): NameCount[] => mostFirst(map, (name, count) => ({ name, visitor_days: count }));

/** A visitor-day counts under every browser its requests came with, so the sums can pass the total. */
export const devicesOf = (counts: RollupCounts): Devices =>
  Object.fromEntries(NAMES.map((row) => [row.card, named(counts[row.rollup])])) as Devices;

/** Scanners' and the site's own page loads are left out, as for sources. */
export function campaignsOf(counts: Pick<RollupCounts, 'campaigns'>): CampaignCount[] {
  return mostFirst(counts.campaigns, (key, pageLoads) => ({ ...campaignFromKey(key), page_loads: pageLoads }));
}

/** A dimension's rows as a list reads them, and each row as the export's `name=count`. */
interface Listing<T> {
  rows: (counts: Record<string, number>) => T[];
  pair: (row: T) => [string, number];
}

type ListItem<D extends Dimension> = D extends 'country' ? CountryCount : D extends 'campaign' ? CampaignCount : NameCount;

/** The dimensions listed in a way of their own; every other one (the `names` ones) is a list of names. */
const LISTINGS: { [D in Dimension]?: Listing<ListItem<D>> } = {
  country: { rows: (map) => countriesOf({ countries: map }), pair: (row) => [row.country, row.visitor_days] },
  campaign: {
    rows: (map) => campaignsOf({ campaigns: map }),
    pair: (row) => [[row.source ?? '', row.medium ?? '', row.campaign ?? ''].join('/'), row.page_loads],
  },
};

const NAMED: Listing<NameCount> = { rows: named, pair: (row) => [row.name, row.visitor_days] };

export const listingOf = <D extends Dimension>(dimension: D) => (LISTINGS[dimension] ?? NAMED) as Listing<ListItem<D>>;

/** The export's lists, one a column. */
export type ExportLists = { [R in ExportedRow as R['export']['column']]: Array<ListItem<R['filter']>> };
