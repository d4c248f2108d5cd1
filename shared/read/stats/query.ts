import { activityQuerySchema, type CardQuery } from '../../contract/queries';
import type { StatsAnswerBody, StatsDimension, StatsFilter, StatsMetric, StatsQuery } from '../../contract/stats';
import { badRequest, fail, fieldIssues, ok, type Result } from '../../core/result';
import { periodReport, type ActivityDeps } from '../activity/report';
import { BREAKDOWNS, FILTER_NAMES, totals, type StatsRowValues } from './breakdowns';

type Leaf = Extract<StatsFilter, [string, string, string[]]>;

const leaves = (filters: readonly StatsFilter[]): Leaf[] =>
  filters.flatMap((filter) => (filter[0] === 'and' ? leaves(filter[1]) : [filter]));

const refused = (path: string, message: string) => fail(badRequest([{ path, message }]));

/** The period in the period report's words: the last N days end the site's local today, as the dashboard's do. */
function periodOf(range: StatsQuery['date_range'], today: string): Record<string, string> {
  if (Array.isArray(range)) return { from: range[0], to: range[1] };
  const periods: Record<string, Record<string, string>> = {
    day: { from: today, to: today },
    '7d': { days: '7' },
    '30d': { days: '30' },
    month: { from: `${today.slice(0, 7)}-01`, to: today },
    year: { from: `${today.slice(0, 4)}-01-01`, to: today },
    all: { days: 'all' },
  };
  return periods[range]!;
}

/** `is` and `is_not` become the report's filters; `contains` narrows the rows of its own dimension only. */
function cardQuery(asked: StatsQuery, today: string): Result<{ query: CardQuery; contains: Leaf[] }> {
  const filter: string[] = [];
  const contains: Leaf[] = [];
  for (const leaf of leaves(asked.filters)) {
    const [op, dimension, [value]] = leaf;
    if (op === 'contains') {
      if (dimension !== asked.dimensions[0]) return refused('filters', `contains is supported on the dimension asked only (${dimension})`);
      contains.push(leaf);
      continue;
    }
    const name = FILTER_NAMES[dimension as StatsDimension];
    if (name === undefined)
      return refused('filters', `${dimension} cannot be filtered by; supported: ${Object.keys(FILTER_NAMES).join(', ')}`);
    filter.push(`${op === 'is_not' ? '!' : ''}${name}:${value}`);
  }
  const read = activityQuerySchema.safeParse({ ...periodOf(asked.date_range, today), filter });
  if (read.success) return ok({ query: read.data, contains });
  const issues = fieldIssues(read.error.issues).map((issue) => ({
    ...issue,
    path: issue.path.startsWith('filter') ? 'filters' : 'date_range',
  }));
  return fail(badRequest(issues));
}

function checkedMetrics(metrics: readonly StatsMetric[], rows: readonly StatsRowValues[], dimension: string): Result<null> {
  const held = new Set(rows.flatMap((row) => Object.keys(row.values)));
  const missing = metrics.filter((metric) => !held.has(metric));
  if (rows.length === 0 || missing.length === 0) return ok(null);
  return refused('metrics', `${missing.join(', ')} not answered ${dimension}; it answers ${[...held].join(', ')}`);
}

function ordered(rows: StatsRowValues[], asked: StatsQuery): Result<StatsRowValues[]> {
  const [by, direction] =
    asked.order_by?.[0] ?? (asked.dimensions[0]?.startsWith('time:') ? [asked.dimensions[0], 'asc'] : [asked.metrics[0]!, 'desc']);
  const sign = direction === 'asc' ? 1 : -1;
  // Local hours come in clock order, which their text does not keep on the day an hour repeats.
  if (by === 'time:hour' && by === asked.dimensions[0]) return ok(direction === 'asc' ? rows : [...rows].reverse());
  if (by === asked.dimensions[0]) return ok([...rows].sort((a, b) => sign * (a.dimensions[0]! < b.dimensions[0]! ? -1 : 1)));
  if (!asked.metrics.includes(by as StatsMetric)) return refused('order_by', `must order by a metric or the dimension asked, not ${by}`);
  const value = (row: StatsRowValues) => row.values[by as StatsMetric] ?? 0;
  return ok([...rows].sort((a, b) => sign * (value(a) - value(b)) || (a.dimensions[0]! < b.dimensions[0]! ? -1 : 1)));
}

/** The answer is the period report's, so a tool and the dashboard never disagree. */
export async function statsQuery(
  asked: StatsQuery,
  site: { name: string; activity: ActivityDeps; today: Date },
): Promise<Result<StatsAnswerBody>> {
  const translated = cardQuery(asked, site.activity.zone.day(site.today));
  if (!translated.ok) return translated;
  const report = await periodReport(translated.value.query, site.activity);
  if (!report.ok) return report;
  const dimension = asked.dimensions[0];
  if (dimension === 'time:hour' && report.value.by_hour === undefined)
    return refused('dimensions', 'time:hour is answered for a period of one or two days; ask time:day for a longer one');
  const all = dimension === undefined ? [totals(report.value)] : BREAKDOWNS[dimension](report.value);
  const rows = all.filter((row) => translated.value.contains.every(([, , [part]]) => row.dimensions[0]!.includes(part!)));
  const checked = checkedMetrics(asked.metrics, all, dimension === undefined ? 'for the whole period' : `by ${dimension}`);
  if (!checked.ok) return checked;
  const sorted = ordered(rows, asked);
  if (!sorted.ok) return sorted;
  const { limit, offset } = asked.pagination ?? { limit: 10_000, offset: 0 };
  return ok({
    results: sorted.value.slice(offset, offset + limit).map((row) => ({
      metrics: asked.metrics.map((metric) => row.values[metric] ?? 0),
      dimensions: row.dimensions,
    })),
    meta: { time_zone: site.activity.zone.name, people: 'visitors are people each counted once in the period, not a sum of days' },
    query: {
      site_id: site.name,
      metrics: [...asked.metrics],
      date_range: [report.value.from ?? '', report.value.to ?? ''],
      dimensions: [...asked.dimensions],
      filters: asked.filters,
    },
  });
}
