import type { ImportedTotals } from '../../core/store/imports';
import { OTHER_PATHS } from '../../core/store/activity';
import { mostFirst } from './audience';
import { TOP_SHOWN } from './period';

/** People cannot be rebuilt from daily totals, so these stay apart from the counted figures. */
export interface ImportedPeriod {
  tools: string[];
  /** The first and the last day of the period with imported totals, and how many of its days have them. */
  from: string;
  to: string;
  days: number;
  /** A tool's daily visitors are one visit a person a day. */
  visits: number;
  /** The tools' pageviews summed; null when no day carried them. */
  page_loads: number | null;
  /** The query string dropped. */
  pages: Array<{ path: string; page_loads: number }>;
  sources: Array<{ source: string; visitor_days: number }>;
  countries: Array<{ country: string; visitor_days: number }>;
}

const add = (into: Record<string, number>, more: Record<string, number> | undefined) => {
  for (const [name, count] of Object.entries(more ?? {})) into[name] = (into[name] ?? 0) + count;
};

/** A summed dimension's most counted names, the rest (already `(other)` on some day) left out, as the card's lists are. */
const named = <T>(counts: Record<string, number>, make: (name: string, count: number) => T): T[] => {
  const { [OTHER_PATHS]: _rest, ...names } = counts;
  return mostFirst(names, make).slice(0, TOP_SHOWN);
};

/** Null when no day has any, so a period of counted days only answers as it always did. */
export function importedOf(rollups: Iterable<{ day: string; imported?: ImportedTotals }>): ImportedPeriod | null {
  const days: string[] = [];
  const tools = new Set<string>();
  let visits = 0;
  let pageLoads: number | null = null;
  const pages: Record<string, number> = {};
  const sources: Record<string, number> = {};
  const countries: Record<string, number> = {};
  for (const rollup of rollups) {
    const imported = rollup.imported;
    if (imported === undefined) continue;
    days.push(rollup.day);
    tools.add(imported.source);
    visits += imported.visitors;
    if (imported.pageviews !== null) pageLoads = (pageLoads ?? 0) + imported.pageviews;
    add(pages, imported.pages);
    add(sources, imported.sources);
    add(countries, imported.countries);
  }
  if (days.length === 0) return null;
  days.sort();
  return {
    tools: [...tools].sort(),
    from: days[0]!,
    to: days[days.length - 1]!,
    days: days.length,
    visits,
    page_loads: pageLoads,
    pages: named(pages, (path, count) => ({ path, page_loads: count })),
    sources: named(sources, (source, count) => ({ source, visitor_days: count })),
    countries: named(countries, (country, count) => ({ country, visitor_days: count })),
  };
}
