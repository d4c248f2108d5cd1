import { stepKey, type FunnelStep } from '../../core/funnel';
import type { RollupCounts } from '../../core/rollup/day-rollup';

/** One step as the card shows it: how many people's visitor-days reached any of its paths. */
export interface FunnelCount {
  step: string;
  paths: string[];
  visitor_days: number;
}

/**
 * The path through, in visitor-days: each step counts the people's visitor-days that requested any of its paths on
 * any store, whether or not they took the steps before it (a reader may land on the resume straight from a link).
 * The rollups count each step by its paths (see stepKey), so renaming a step keeps its days.
 */
export function funnelOf(counts: Pick<RollupCounts, 'steps'>, steps: readonly FunnelStep[]): FunnelCount[] {
  return steps.map((step) => ({ step: step.name, paths: step.paths, visitor_days: counts.steps[stepKey(step)] ?? 0 }));
}
