import { funnelStepsSetting, type FunnelStep } from '../../shared/activity/funnel';
import { periodOf, type PeriodCounts } from '../../shared/activity/period';
import { emptyRollup, moved, type DayRollup } from '../../shared/rollup/day-rollup';
import type { VisitorDay } from '../../shared/store/activity';
import type { Goal } from '../../shared/events/events';

const DEFAULT_STEPS = funnelStepsSetting.parse(undefined);

/**
 * A day's rollup counted again from its visitor-days alone: every daily token's documents added to an empty rollup.
 * The fold moves a rollup by deltas; this is the recount it must always equal.
 */
export function recountDay(
  day: string,
  docs: readonly VisitorDay[],
  steps: readonly FunnelStep[] = DEFAULT_STEPS,
  goals: readonly Goal[] = [],
): DayRollup {
  const tokens = new Map<string, VisitorDay[]>();
  for (const doc of docs.filter((one) => one.day === day)) tokens.set(doc.token, [...(tokens.get(doc.token) ?? []), doc]);
  return moved(
    emptyRollup(day, null),
    [...tokens.values()].map((after) => ({ before: [], after })),
    { steps, goals },
  );
}

/** Each day's recounted rollup. */
export function rollupsOf(docs: readonly VisitorDay[], steps: readonly FunnelStep[] = DEFAULT_STEPS): Map<string, DayRollup> {
  return new Map([...new Set(docs.map((doc) => doc.day))].map((day) => [day, recountDay(day, docs, steps)]));
}

/** The recounted rollups of every day the documents are on, added up as a period. */
export const countsOf = (docs: readonly VisitorDay[], steps: readonly FunnelStep[] = DEFAULT_STEPS): PeriodCounts =>
  periodOf(rollupsOf(docs, steps).values(), { steps, goals: [] });
