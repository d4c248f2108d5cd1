import { addCapped } from '../counts';
import { actionDay, type GoalAction } from '../store/facts';
import { CONVERT_BUCKETS, type ByTouch, type ConvertBucket } from '../store/goals';

/** Referrer hosts and campaigns past this many are summed under `(other)`. */
export const TOUCH_TOP = 100;

/** The name for a person kept before first touches were carried. */
export const UNKNOWN_TOUCH = 'unknown';

/** A first visit with no referrer and no campaign. */
export const NO_TOUCH = '(none)';

export const emptyByTouch = (): ByTouch => ({ sources: {}, referrers: {}, campaigns: {} });

export function addTouches(counts: ByTouch | undefined, actions: readonly GoalAction[]): ByTouch {
  const more = emptyByTouch();
  const bump = (map: Record<string, number>, name: string) => (map[name] = (map[name] ?? 0) + 1);
  for (const { touch } of actions) {
    bump(more.sources, touch?.source ?? UNKNOWN_TOUCH);
    bump(more.referrers, touch === undefined ? UNKNOWN_TOUCH : (touch.referrer ?? NO_TOUCH));
    bump(more.campaigns, touch === undefined ? UNKNOWN_TOUCH : (touch.campaign ?? NO_TOUCH));
  }
  const kept = counts ?? emptyByTouch();
  return {
    sources: addCapped(kept.sources, more.sources, TOUCH_TOP),
    referrers: addCapped(kept.referrers, more.referrers, TOUCH_TOP),
    campaigns: addCapped(kept.campaigns, more.campaigns, TOUCH_TOP),
  };
}

const DAY_MS = 86_400_000;

export function bucketOf(action: Pick<GoalAction, 'first' | 'at' | 'day'>): ConvertBucket {
  if (action.first === undefined) return 'unknown';
  const days = Math.round((Date.parse(`${actionDay(action)}T00:00:00Z`) - Date.parse(`${action.first}T00:00:00Z`)) / DAY_MS);
  if (days <= 0) return '0';
  if (days === 1) return '1';
  if (days <= 7) return '2-7';
  return days <= 30 ? '8-30' : '31+';
}

export function addBuckets(
  counts: Partial<Record<ConvertBucket, number>> | undefined,
  firsts: readonly GoalAction[],
): Record<ConvertBucket, number> {
  const sum = Object.fromEntries(CONVERT_BUCKETS.map((bucket) => [bucket, counts?.[bucket] ?? 0])) as Record<ConvertBucket, number>;
  for (const action of firsts) sum[bucketOf(action)] += 1;
  return sum;
}
