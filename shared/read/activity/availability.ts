import type { Logger } from '../../core/ports/logger';
import type { Store } from '../../core/store';
import { errorLine } from '../../core/errors';

export interface Availability {
  available: boolean;
  reason: string;
  /** As the store says it; null when the store could not answer. */
  retention: string | null;
}

/** Since the process started. */
export interface ActivityCost {
  operations: number;
  reads: number;
  writes: number;
  queries: number;
  failures: number;
  request_units: number;
}

export type ActivityStore = Pick<
  Store,
  | 'activityReader'
  | 'activityDays'
  | 'rollupReader'
  | 'periodReader'
  | 'visitorDayPages'
  | 'dayFiles'
  | 'foldState'
  | 'visitorsSummary'
  | 'visits'
  | 'goals'
  | 'migrations'
  | 'source'
  | 'stats'
>;

const DOWN =
  'The store that keeps activity could not be read just now, so there is nothing to show; it will answer again once the store is back.';

/** The store's own error is logged, never shown: it never holds an address. */
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
