import { operatorSettings, type AdminAccess } from '../admin/auth';
import type { Settings } from '../config/settings';
import { TIMER_FOLD_BUDGET, type FoldDeps } from '../folding/fold';
import type { Clock } from '../ports/clock';
import type { Logger } from '../ports/logger';
import type { Store } from '../store';
import { scanRules } from '../subjects/scan-rule';
import type { CountAnswerDeps } from './answers';

/** The parts of the composition root the count is made from. */
export interface CountingRoot {
  settings: Pick<
    Settings,
    | 'HASH_KEY'
    | 'OPERATOR_KEY'
    | 'ALLOWED_ORIGINS'
    | 'HIT_MAX_AGE_DAYS'
    | 'SUBJECT_REFRESH_SECONDS'
    | 'SUBJECT_SCAN_INTERVAL_SECONDS'
    | 'FUNNEL_STEPS'
    | 'GOALS'
    | 'PULSE_GOAL'
  >;
  store: Store;
  clock: Clock;
  logger: Logger;
}

/** What the pulse and the Admin count read, from the root: one place, so the two reads are made the same way. */
export function countAnswerDeps(root: CountingRoot & { admin: AdminAccess }): CountAnswerDeps {
  return {
    count: {
      visitorsSummary: root.store.visitorsSummary,
      visits: root.store.visits,
      foldState: root.store.foldState,
      clock: root.clock,
      source: root.store.source,
    },
    operator: operatorSettings(root.settings, root.admin),
    allowedOrigins: root.settings.ALLOWED_ORIGINS,
    pulseGoal: root.settings.PULSE_GOAL === undefined ? null : { name: root.settings.PULSE_GOAL, summaries: root.store.goals.summaries },
  };
}

/** What the recount timer's fold reads and writes, from the root. */
export function foldDeps(root: CountingRoot): FoldDeps {
  return {
    store: root.store,
    clock: root.clock,
    rules: scanRules(root.settings.SUBJECT_REFRESH_SECONDS, root.settings.SUBJECT_SCAN_INTERVAL_SECONDS),
    lateDays: root.settings.HIT_MAX_AGE_DAYS,
    steps: root.settings.FUNNEL_STEPS,
    goals: root.settings.GOALS,
    budget: TIMER_FOLD_BUDGET,
  };
}
