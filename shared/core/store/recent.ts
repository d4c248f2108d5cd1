import type { VisitorDayPart } from './facts';

/** Read straight from the facts, since the fold's documents are up to two minutes behind. */
export interface RecentFacts {
  /** One query in the day's partition; a part may hold older hits, which the caller leaves out. */
  partsSince(day: string, since: Date): Promise<VisitorDayPart[]>;
}

/** A hit may be five minutes ahead at ingest (INGEST_LIMITS.maxFutureMs) and the store's clock may differ a little. */
export const WRITTEN_BEFORE_SLACK_SECONDS = 6 * 60;
