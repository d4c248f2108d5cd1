import { addDays, monthStart } from '../../core/days';
import { ok, type Result } from '../../core/result';
import type { PeriodReportAnswer } from '../../contract/activity';
import { activityQuerySchema } from '../../contract/queries';
import { periodReport, type ActivityDeps } from '../activity/report';
import type { Block } from './letter';

export type ReportKind = 'weekly' | 'monthly';

export interface Span {
  from: string;
  to: string;
}

/** The last whole local week (Monday to Sunday) or month before today, and the one before it. */
export function lastPeriod(kind: ReportKind, today: string): { period: Span; before: Span } {
  if (kind === 'weekly') {
    const monday = addDays(today, -((new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7));
    return {
      period: { from: addDays(monday, -7), to: addDays(monday, -1) },
      before: { from: addDays(monday, -14), to: addDays(monday, -8) },
    };
  }
  const to = addDays(monthStart(today), -1);
  const beforeTo = addDays(monthStart(to), -1);
  return { period: { from: monthStart(to), to }, before: { from: monthStart(beforeTo), to: beforeTo } };
}

/** How many top pages, sources and goals a report lists. */
const TOP = 5;

async function reportOf(span: Span, deps: ActivityDeps): Promise<Result<PeriodReportAnswer>> {
  return periodReport(activityQuerySchema.parse(span), deps);
}

const change = (now: number | null, before: number | null): string => {
  if (now === null) return '–';
  if (before === null || before === 0) return now === 0 ? '±0' : 'new';
  const percent = Math.round(((now - before) / before) * 100);
  return `${percent > 0 ? '+' : percent === 0 ? '±' : ''}${percent}%`;
};

const shown = (value: number | null, unit = '') => (value === null ? '–' : `${value}${unit}`);

/** Rows by name, each with its change on the period before. */
function topRows(now: ReadonlyArray<[string, number]>, before: ReadonlyArray<[string, number]>): string[][] {
  const earlier = new Map(before);
  return [...now]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, TOP)
    .map(([name, value]) => [name, String(value), change(value, earlier.get(name) ?? 0)]);
}

const pagesOf = (report: PeriodReportAnswer): Array<[string, number]> => (report.pages ?? []).map((row) => [row.path, row.people]);

const sourcesOf = (report: PeriodReportAnswer): Array<[string, number]> => {
  const sources = report.sources;
  if (sources === null) return [];
  return (['linkedin', 'github', 'search', 'other', 'typed'] as const).map((group) => [group, sources[group]]);
};

const goalsOf = (report: PeriodReportAnswer): Array<[string, number]> => (report.goals ?? []).map((row) => [row.goal, row.conversions]);

/** The headline, top pages, sources and goals of a period, each beside its change on the period before. */
export async function reportBlocks(kind: ReportKind, spans: { period: Span; before: Span }, deps: ActivityDeps): Promise<Result<Block[]>> {
  const [now, before] = await Promise.all([reportOf(spans.period, deps), reportOf(spans.before, deps)]);
  if (!now.ok) return now;
  if (!before.ok) return before;
  const a = now.value.headline;
  const b = before.value.headline;
  const figure = (name: string, pick: (h: NonNullable<typeof a>) => number | null, unit = ''): string[] => {
    const value = a === null ? null : pick(a);
    return [name, shown(value, unit), change(value, b === null ? null : pick(b))];
  };
  const blocks: Block[] = [
    { lines: [`${kind === 'weekly' ? 'The week' : 'The month'} from ${spans.period.from} to ${spans.period.to}, beside the one before.`] },
    {
      head: ['', 'this period', 'change'],
      rows: [
        figure('People (each once)', (h) => h.people),
        figure('Visits', (h) => h.visits),
        figure('Pageviews', (h) => h.page_loads),
        figure('Bounce rate', (h) => h.bounce_rate, '%'),
        figure('Visit duration', (h) => h.visit_duration, ' s'),
      ],
    },
    { head: ['Top pages', 'people', 'change'], rows: topRows(pagesOf(now.value), pagesOf(before.value)) },
    { head: ['Sources', 'pageviews', 'change'], rows: topRows(sourcesOf(now.value), sourcesOf(before.value)) },
  ];
  const goals = topRows(goalsOf(now.value), goalsOf(before.value));
  if (goals.length > 0) blocks.push({ head: ['Goals', 'conversions', 'change'], rows: goals });
  return ok(blocks);
}
