import { CONVERT_BUCKETS, type ByTouch, type ConvertBucket } from '../../core/store/goals';
import type { GoalSummary } from '../../core/store/goals';

/** How many names of each first touch a goal lists. */
const TOUCHES_SHOWN = 20;

function rowsOf(people: Record<string, number>, conversions: Record<string, number>) {
  return [...new Set([...Object.keys(people), ...Object.keys(conversions)])]
    .map((name) => ({ name, people: people[name] ?? 0, conversions: conversions[name] ?? 0 }))
    .sort((a, b) => b.people - a.people || b.conversions - a.conversions || (a.name < b.name ? -1 : 1))
    .slice(0, TOUCHES_SHOWN);
}

export function firstTouchOf(summary: GoalSummary | null) {
  const people: ByTouch = summary?.first_touch ?? { sources: {}, referrers: {}, campaigns: {} };
  const conversions: ByTouch = summary?.conversions_by_touch ?? { sources: {}, referrers: {}, campaigns: {} };
  return {
    sources: rowsOf(people.sources, conversions.sources),
    referrers: rowsOf(people.referrers, conversions.referrers),
    campaigns: rowsOf(people.campaigns, conversions.campaigns),
    days_to_convert: Object.fromEntries(CONVERT_BUCKETS.map((bucket) => [bucket, summary?.days_to_convert?.[bucket] ?? 0])) as Record<
      ConvertBucket,
      number
    >,
  };
}
