import type { Logger } from '../../core/ports/logger';
import type { Store } from '../../core/store';
import { errorLine } from '../../core/errors';

/** Whether activity could be read, why or why not in one sentence a page can show, and how long it is kept. */
export interface Availability {
  available: boolean;
  reason: string;
  /** As the store says it; null when the store could not answer. */
  retention: string | null;
}

/** What the store's operations have cost since the process started, keeping activity and reading it. */
export interface ActivityCost {
  operations: number;
  reads: number;
  writes: number;
  queries: number;
  failures: number;
  request_units: number;
}

/** The store parts the Activity card reads through. */
export type ActivityStore = Pick<
  Store,
  | 'activityReader'
  | 'activityDays'
  | 'rollupReader'
  | 'periodReader'
  | 'visitorDayPages'
  | 'foldState'
  | 'visitorsSummary'
  | 'visits'
  | 'goals'
  | 'source'
  | 'stats'
>;

const DOWN =
  'The store that keeps activity could not be read just now, so there is nothing to show; it will answer again once the store is back.';

/**
 * A read of the store as a result: the value with the store's availability, or the availability that says it could
 * not answer. The store's own error is logged (it never holds an address) and not shown.
 */
export async function readActivity<T>(
  store: ActivityStore,
  logger: Logger,
  read: () => Promise<T>,
): Promise<{ value: T | null; availability: Availability }> {
  try {
    const value = await read();
    return { value, availability: { available: true, reason: `Activity is ${store.source}.`, retention: store.activityDays.retention } };
  } catch (error) {
    logger.warn('activity could not be read', { reason: errorLine(error) });
    return { value: null, availability: { available: false, reason: DOWN, retention: null } };
  }
}

/** The store's counted operations, as the card shows them. */
export function costOf(store: ActivityStore): ActivityCost {
  const stats = store.stats();
  return {
    operations: stats.reads + stats.writes + stats.queries,
    reads: stats.reads,
    writes: stats.writes,
    queries: stats.queries,
    failures: stats.failures,
    request_units: stats.requestUnits,
  };
}
