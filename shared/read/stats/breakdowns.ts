import type { PeriodReportAnswer } from '../../contract/activity';
import type { StatsDimension, StatsMetric } from '../../contract/stats';

/** One value of a dimension and the metrics the period report holds for it. */
export interface StatsRowValues {
  dimensions: string[];
  values: Partial<Record<StatsMetric, number>>;
}

type Report = PeriodReportAnswer;

const visitDays = (n: number) => ({ visitors: n, visits: n });

const byTag = (report: Report, tag: 'source' | 'medium' | 'campaign'): StatsRowValues[] => {
  const sums = new Map<string, number>();
  for (const row of report.campaigns ?? []) {
    const value = row[tag];
    if (value !== null) sums.set(value, (sums.get(value) ?? 0) + row.page_loads);
  }
  return [...sums].map(([value, pageviews]) => ({ dimensions: [value], values: { pageviews } }));
};

const names = (report: Report, card: 'browsers' | 'systems' | 'types'): StatsRowValues[] =>
  (report.devices?.[card] ?? []).map((row) => ({ dimensions: [row.name], values: visitDays(row.visitor_days) }));

/** Each dimension as the dashboard's panel shows it: a visitor-day is one visit, and a list counts people's visitor-days. */
export const BREAKDOWNS: Record<StatsDimension, (report: Report) => StatsRowValues[]> = {
  'time:day': (report) =>
    (report.by_day ?? []).map((day) => ({ dimensions: [day.day], values: { ...visitDays(day.people), pageviews: day.page_loads ?? 0 } })),
  // An hour holds requests only: its people's requests, page loads and events together, as Plausible's `events` counts them.
  'time:hour': (report) =>
    (report.by_hour ?? []).map((hour) => ({
      dimensions: [hour.hour],
      values: { events: Math.max(0, hour.requests - hour.bots - hour.self) },
    })),
  'event:page': (report) =>
    (report.pages ?? []).map((page) => ({ dimensions: [page.path], values: { ...visitDays(page.people), pageviews: page.page_loads } })),
  'event:goal': (report) =>
    (report.goals ?? []).map((goal) => ({
      dimensions: [goal.goal],
      values: { ...visitDays(goal.conversions), conversion_rate: Math.round(goal.rate * 10_000) / 100 },
    })),
  'visit:entry_page': (report) =>
    (report.entry_pages ?? []).map((entry) => ({ dimensions: [entry.path], values: visitDays(entry.people) })),
  'visit:source': (report) => {
    const sources = report.sources;
    if (sources === null) return [];
    const groups = ['linkedin', 'github', 'search', 'other', 'typed'] as const;
    return groups.map((group) => ({ dimensions: [group], values: { pageviews: sources[group] } }));
  },
  'visit:referrer': (report) =>
    (report.referrers ?? []).map((row) => ({ dimensions: [row.host], values: { ...visitDays(row.people), pageviews: row.page_loads } })),
  'visit:utm_source': (report) => byTag(report, 'source'),
  'visit:utm_medium': (report) => byTag(report, 'medium'),
  'visit:utm_campaign': (report) => byTag(report, 'campaign'),
  'visit:country': (report) => (report.countries ?? []).map((row) => ({ dimensions: [row.country], values: visitDays(row.visitor_days) })),
  'visit:browser': (report) => names(report, 'browsers'),
  'visit:os': (report) => names(report, 'systems'),
  'visit:device': (report) => names(report, 'types'),
};

/** The whole period: people each once, as the headline says them. */
export function totals(report: Report): StatsRowValues {
  const headline = report.headline;
  if (headline === null) return { dimensions: [], values: {} };
  const events = (report.events ?? []).reduce((sum, row) => sum + row.count, 0);
  const perVisit = headline.visits === 0 ? 0 : Math.round((headline.page_loads / headline.visits) * 100) / 100;
  return {
    dimensions: [],
    values: { visitors: headline.people, visits: headline.visits, pageviews: headline.page_loads, views_per_visit: perVisit, events },
  };
}

/** The filter a Stats API dimension is, in the period report's words; null for one it cannot filter by. */
export const FILTER_NAMES: Partial<Record<StatsDimension, string>> = {
  'event:page': 'page',
  'event:goal': 'goal',
  'visit:entry_page': 'entry',
  'visit:source': 'source',
  'visit:referrer': 'referrer',
  'visit:country': 'country',
  'visit:browser': 'browser',
  'visit:os': 'system',
  'visit:device': 'device',
};
