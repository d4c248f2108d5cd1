import { funnelStepsSetting, type FunnelStep } from '../../shared/core/funnel';
import { periodOf, type PeriodCounts } from '../../shared/read/activity/period';
import { emptyRollup, moved } from '../../shared/core/rollup/day-rollup';
import { type DayRollup } from '../../shared/core/store/rollups';
import type { VisitorDay } from '../../shared/core/store/activity';
import type { Goal } from '../../shared/core/events/events';
import type { memoryStore } from '../../adapters/memory/store';
import { fold, type FoldDeps } from '../../shared/fold/fold';
import { type FoldBudget } from '../../shared/fold/budget';
import type { QueuedHit } from '../../shared/core/message';
import type { fixedClock } from '../../shared/core/ports/clock';
import { failingAfter } from '../integration/keep-helpers';
import { keepHits } from './counting';

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

/** One message of a property test's traffic: its hits, whether it is delivered twice, and the fold's write to die after. */
export interface TrafficMessage {
  hits: QueuedHit[];
  twice: boolean;
  failAfter: number;
}

/**
 * Keeps each message in turn (twice when asked), after each a fold that dies right after one of its writes, then folds
 * until caught up: what a property test holds its rollups against.
 */
export async function keptAndFolded(
  traffic: readonly TrafficMessage[],
  deps: FoldDeps & { store: ReturnType<typeof memoryStore>; clock: ReturnType<typeof fixedClock>; budget: FoldBudget },
): Promise<void> {
  const { store, clock } = deps;
  let serial = 0;
  for (const message of traffic) {
    const id = `00000000-0000-4000-8000-${String((serial += 1)).padStart(12, '0')}`;
    await keepHits(store, clock, message.hits, id);
    if (message.twice) await keepHits(store, clock, message.hits, id);
    if (message.failAfter > 0) await fold({ ...deps, store: failingAfter(store, message.failAfter) });
    // A fold that died holds the lease until it lapses.
    clock.advance(deps.budget.leaseSeconds * 1000);
  }
  for (let run = 0; run < 60; run += 1) {
    const outcome = await fold(deps);
    clock.advance(60_000);
    if (outcome.ok && outcome.behind === null) break;
  }
}
