import { stepKey, type FunnelStep } from '../../core/funnel';
import type { RollupCounts } from '../../core/store/rollups';

export interface FunnelCount {
  step: string;
  paths: string[];
  visitor_days: number;
}

/** A step counts whether or not the steps before it were taken, since a reader may land on it from a link. */
export function funnelOf(counts: Pick<RollupCounts, 'steps'>, steps: readonly FunnelStep[]): FunnelCount[] {
  return steps.map((step) => ({ step: step.name, paths: step.paths, visitor_days: counts.steps[stepKey(step)] ?? 0 }));
}
