import { holdsTime, type RollupCounts } from '../../core/store/rollups';

/** The visits and page loads of the rollups that hold time on site, and the first day they hold it from. */
export interface Timed {
  visits: number;
  page_loads: number;
  /** The first day of the earliest rollup that holds it, when some rollup of the period was folded before it was kept. */
  from: string | null;
}

/** A day rollup's day, or the first day of a cell's or a month's or year's span. */
export type Dated = { day?: string; at?: string; span?: 'day' | 'month' | 'year' };

const firstDayOf = (part: Dated) =>
  part.day ?? (part.span === 'year' ? `${part.at}-01-01` : part.span === 'month' ? `${part.at}-01` : part.at!);

/** Only the rollups folded since time on site was kept count, so a day folded before adds no zeros to it. */
export function timedOf(parts: ReadonlyArray<Pick<RollupCounts, 'bounces' | 'visitor_days' | 'page_loads'> & Dated>): Timed {
  const holding = parts.filter(holdsTime);
  const visits = holding.reduce((sum, part) => sum + part.visitor_days.people, 0);
  const page_loads = holding.reduce((sum, part) => sum + part.page_loads, 0);
  if (holding.length === parts.length || holding.length === 0) return { visits, page_loads, from: null };
  return { visits, page_loads, from: holding.map(firstDayOf).sort()[0]! };
}

type TimeCounts = Pick<RollupCounts, 'bounces' | 'engaged_ms' | 'span_ms'>;

/** Null when no visit of the period is timed (none, or every day folded before time on site was kept). */
export function timeFigures(counts: TimeCounts, timed: Timed) {
  const { visits } = timed;
  if (visits === 0) return { views_per_visit: null, bounce_rate: null, visit_duration: null };
  return {
    views_per_visit: Math.round((100 * timed.page_loads) / visits) / 100,
    bounce_rate: Math.round((1000 * (counts.bounces ?? 0)) / visits) / 10,
    visit_duration: Math.round(((counts.engaged_ms ?? 0) + (counts.span_ms ?? 0)) / visits / 1000),
  };
}

/** A page's mean engaged seconds and mean deepest scroll over the visits that engaged with it; null when none did. */
export function pageTime(counts: Pick<RollupCounts, 'engaged_pages' | 'page_ms' | 'page_scroll'>, path: string) {
  const visits = counts.engaged_pages?.[path] ?? 0;
  if (visits === 0) return { time_on_page: null, scroll_depth: null };
  return {
    time_on_page: Math.round((counts.page_ms?.[path] ?? 0) / visits / 1000),
    scroll_depth: Math.round((counts.page_scroll?.[path] ?? 0) / visits),
  };
}
