import type { VisitorsSummaries } from './summary';
import type { VisitsSummaries } from './visits';

export type VisitsRead = Awaited<ReturnType<VisitsSummaries['read']>>;
type SummaryRead = Awaited<ReturnType<VisitorsSummaries['read']>>;

/** No visitor-day is older than the summaries' first day; null before the first visitor. */
export function firstDayOf(summary: SummaryRead, visits: VisitsRead): string | null {
  const days = [summary?.doc.counted_from, visits?.doc.from, Object.keys(summary?.doc.scanners_by_day ?? {}).sort()[0]];
  return days.filter((day): day is string => typeof day === 'string').sort()[0] ?? null;
}

export async function firstKeptDay(store: { visitorsSummary: VisitorsSummaries; visits: VisitsSummaries }): Promise<string | null> {
  const [summary, visits] = await Promise.all([store.visitorsSummary.read(), store.visits.read()]);
  return firstDayOf(summary, visits);
}
