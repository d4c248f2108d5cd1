import { operatorSettings } from '../admin/auth';
import type { Settings } from '../config/settings';
import type { Clock } from '../ports/clock';
import type { Logger } from '../ports/logger';
import type { Store } from '../store';
import type { CountAnswerDeps } from './answers';
import type { RecountDeps } from './recount';

/** The parts of the composition root the count is made from. */
export interface CountingRoot {
  settings: Pick<Settings, 'HASH_KEY' | 'OPERATOR_KEY' | 'ALLOWED_ORIGINS' | 'HIT_MAX_AGE_DAYS'>;
  store: Store;
  clock: Clock;
  logger: Logger;
}

/** What the pulse and the Admin count read, from the root: one place, so the two reads are made the same way. */
export function countAnswerDeps(root: CountingRoot): CountAnswerDeps {
  return {
    count: { visitors: root.store.visitors, visits: root.store.visits, clock: root.clock, source: root.store.source },
    operator: operatorSettings(root.settings),
    allowedOrigins: root.settings.ALLOWED_ORIGINS,
  };
}

/** What the recount reads and writes, from the root. */
export function recountDeps(root: CountingRoot): RecountDeps {
  const { store } = root;
  return {
    visits: store.visits,
    activity: store.activityReader,
    changes: store.visitorDayChanges,
    clock: root.clock,
    logger: root.logger,
    lateDays: root.settings.HIT_MAX_AGE_DAYS,
    reconcile: { summary: store.summary, census: store.census, receipts: store.receipts },
  };
}
