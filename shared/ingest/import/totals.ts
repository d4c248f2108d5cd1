import { cleanPath } from '../../core/identity/paths';
import { ROLLUP_TOP } from '../../core/rollup/day-rollup';
import { OTHER_PATHS } from '../../core/store/activity';
import type { ImportedTotals } from '../../core/store/imports';
import type { ImportedDay } from '../../contract/import';

/** A tool's source name as kept: letters, digits and a few watermarks, other runs made one space, at most 64 characters. */
export function cleanSourceName(raw: string): string {
  const name = raw
    .replace(/[^\p{L}\p{N} ./&()'_+-]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 64)
    .trim();
  return name === '' ? OTHER_PATHS : name;
}

function topOf(counts: Record<string, number> | undefined, clean: (name: string) => string): Record<string, number> {
  const summed = new Map<string, number>();
  for (const [name, count] of Object.entries(counts ?? {})) {
    if (count <= 0) continue;
    const key = clean(name);
    summed.set(key, (summed.get(key) ?? 0) + count);
  }
  const named = [...summed].filter(([name]) => name !== OTHER_PATHS).sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1));
  const cut = named.length > ROLLUP_TOP ? ROLLUP_TOP - 1 : named.length;
  const other = named.slice(cut).reduce((sum, [, count]) => sum + count, summed.get(OTHER_PATHS) ?? 0);
  const kept = Object.fromEntries(named.slice(0, cut));
  return other > 0 ? { ...kept, [OTHER_PATHS]: other } : kept;
}

/** Nothing in it names a person. */
export function importedTotals(day: ImportedDay): ImportedTotals {
  return {
    source: day.source,
    visitors: day.visitors,
    pageviews: day.pageviews ?? null,
    visits: day.visits ?? null,
    pages: topOf(day.pages, cleanPath),
    sources: topOf(day.sources, cleanSourceName),
    countries: topOf(day.countries, (code) => code.toUpperCase()),
  };
}
