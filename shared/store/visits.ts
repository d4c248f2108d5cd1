import type { Conditional } from './documents';
import { VISITORS_PK } from './visitors';

/** The visits summary's id in the `visitors` partition. */
export const VISITS_SUMMARY_ID = 'visits-summary';

/**
 * The visits by people, one a person a day from the daily tokens, kept by the recount (pk `visitors`, id
 * `visits-summary`), with what the recount needs to run incrementally. Every day is a UTC `yyyy-MM-dd`; every time is
 * ISO 8601 UTC.
 */
export interface VisitsSummary {
  id: typeof VISITS_SUMMARY_ID;
  pk: typeof VISITORS_PK;
  kind: 'visits-summary';
  /** Visits by people on every kept day. */
  all_time: number;
  /** The first kept day with a person on it; null until the first person. */
  from: string | null;
  /** Visits by people by day, every kept day that has any. */
  by_day: Record<string, number>;
  /** The newest day any visitor-day row was read on; a later count reads from the day before it. */
  newest_day: string | null;
  /** When a count last read from the day before the newest day (or every kept day); null before the first. */
  full_at: string | null;
  /** When any count last read the rows (today's included). */
  counted_at: string | null;
  /** No count reads before this, after a read that failed or came back empty. */
  retry_after: string | null;
  /** When the visitors summary was last reconciled with the visitor records. */
  reconciled_at: string | null;
  /** The store's mark of the last visitor-day change read (see VisitorDayChanges); null before the first count. */
  changes_mark: number | null;
}

/**
 * Which days' visitor-day documents were written after a mark, and the mark to ask from next time. A mark is the
 * store's own (Cosmos DB's `_ts`, or the time keep-hits applied a message in memory): opaque to the count, and never
 * compared with the app's clock. One query, answering a day per document written since the mark.
 */
export interface VisitorDayChanges {
  changedSince(mark: number): Promise<{ days: string[]; mark: number }>;
}

/** The visits summary, read with its version and written conditionally, like every summary. */
export type VisitsSummaries = Conditional<VisitsSummary, []>;

/** A visits summary with nothing counted yet. */
export function emptyVisits(): VisitsSummary {
  return {
    id: VISITS_SUMMARY_ID,
    pk: VISITORS_PK,
    kind: 'visits-summary',
    all_time: 0,
    from: null,
    by_day: {},
    newest_day: null,
    full_at: null,
    counted_at: null,
    retry_after: null,
    reconciled_at: null,
    changes_mark: null,
  };
}
