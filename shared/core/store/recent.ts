import type { VisitorDayPart } from './facts';

/**
 * The facts keep-hits wrote in the last minutes, read straight from a day's partition for GET /api/admin/now: the
 * fold runs once a minute and reads only settled writes, so its documents are up to two minutes behind, while a fact
 * is there as soon as its message is kept.
 */
export interface RecentFacts {
  /**
   * The visitor-day parts of the day's facts that can hold a hit at or after `since` (one query in the day's
   * partition); a part may also hold older hits, which the caller leaves out by their minutes.
   */
  partsSince(day: string, since: Date): Promise<VisitorDayPart[]>;
}

/**
 * How much earlier than `since` a fact may have been written and still hold a hit at or after it: a hit may be up to
 * five minutes ahead of the clock at ingest (INGEST_LIMITS.maxFutureMs), and the store's clock may differ from the
 * app's by a little; so the store is asked for the facts written since `since` less six minutes.
 */
export const WRITTEN_BEFORE_SLACK_SECONDS = 6 * 60;
