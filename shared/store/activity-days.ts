import type { VisitorDay } from './activity';

/** The activity of one UTC day, for the Admin tab's table of visitor-days: one query in the day's one partition. */
export interface ActivityDays {
  /** Every visitor-day document of the day (`yyyy-MM-dd`), on every store, first seen first. */
  visitorDaysOn(day: string): Promise<VisitorDay[]>;
  /** How long activity is kept, as this store says it, in words a page can show. */
  readonly retention: string;
}

/** Visitor-days in the order the table shows them: first seen first, then by store and token. */
export const firstSeenFirst = (a: VisitorDay, b: VisitorDay) =>
  a.first_seen === b.first_seen ? (a.id < b.id ? -1 : 1) : a.first_seen < b.first_seen ? -1 : 1;
