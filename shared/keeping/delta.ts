import type { SummaryDelta, VisitorsSummary } from '../store/summary';
import { VISITORS_SUMMARY_ID } from '../store/summary';
import { VISITORS_PK, type VisitorRecord } from '../store/visitors';

/** No change to the summary. */
export const noDelta = (): SummaryDelta => ({ people: 0, scanners: 0, by_day: {}, counted_from: null });

const earlier = (a: string | null, b: string | null) => (a === null ? b : b === null ? a : a < b ? a : b);

/** What one record adds to the summary: a person one person on the day counted, a scanner one scanner, self nothing. */
function contribution(record: VisitorRecord | null): SummaryDelta {
  if (record?.who === 'people' && record.counted_on !== null) {
    return { people: 1, scanners: 0, by_day: { [record.counted_on]: 1 }, counted_from: record.counted_on };
  }
  return { ...noDelta(), scanners: record?.who === 'scanners' ? 1 : 0 };
}

/** Two changes added; days that net to nothing drop out. */
export function plus(a: SummaryDelta, b: SummaryDelta): SummaryDelta {
  const byDay: Record<string, number> = { ...a.by_day };
  for (const [day, count] of Object.entries(b.by_day)) byDay[day] = (byDay[day] ?? 0) + count;
  return {
    people: a.people + b.people,
    scanners: a.scanners + b.scanners,
    by_day: Object.fromEntries(Object.entries(byDay).filter(([, count]) => count !== 0)),
    counted_from: earlier(a.counted_from, b.counted_from),
  };
}

/**
 * What rewriting a record changes in the summary: what the new version contributes less what the old one did. Summed
 * over every write of a record these telescope to what the record contributes now, so applying each write's change
 * once keeps the summary exact whatever order the writes came in.
 */
export function deltaOf(before: VisitorRecord | null, after: VisitorRecord): SummaryDelta {
  const was = contribution(before);
  const is = contribution(after);
  const byDay: Record<string, number> = { ...is.by_day };
  for (const [day, count] of Object.entries(was.by_day)) byDay[day] = (byDay[day] ?? 0) - count;
  return {
    people: is.people - was.people,
    scanners: is.scanners - was.scanners,
    by_day: Object.fromEntries(Object.entries(byDay).filter(([, count]) => count !== 0)),
    // The first person's day only ever moves earlier: a person who later reads as self does not move it back.
    counted_from: is.counted_from !== null && is.counted_from !== was.counted_from ? is.counted_from : null,
  };
}

/** Whether a change changes nothing. */
export const isEmpty = (delta: SummaryDelta) =>
  delta.people === 0 && delta.scanners === 0 && Object.keys(delta.by_day).length === 0 && delta.counted_from === null;

/** The summary with a change applied (from none yet: zeros). */
export function applyDelta(summary: VisitorsSummary | null, delta: SummaryDelta): VisitorsSummary {
  const base: VisitorsSummary = summary ?? {
    id: VISITORS_SUMMARY_ID,
    pk: VISITORS_PK,
    kind: 'visitors-summary',
    people_all_time: 0,
    scanners_left_out: 0,
    counted_from: null,
    people_new_by_day: {},
    applied: {},
  };
  const byDay: Record<string, number> = { ...base.people_new_by_day };
  for (const [day, count] of Object.entries(delta.by_day)) byDay[day] = (byDay[day] ?? 0) + count;
  return {
    ...base,
    people_all_time: base.people_all_time + delta.people,
    scanners_left_out: base.scanners_left_out + delta.scanners,
    counted_from: earlier(base.counted_from, delta.counted_from),
    people_new_by_day: Object.fromEntries(Object.entries(byDay).filter(([, count]) => count !== 0).sort(([a], [b]) => (a < b ? -1 : 1))),
  };
}
