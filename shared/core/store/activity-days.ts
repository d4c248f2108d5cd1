import type { VisitorDay } from './activity';

/** Where a page of the day's table begins: after this visitor-day, in the table's order. */
export interface TablePlace {
  first_seen: string;
  id: string;
}

/** The activity of one UTC day, for the Admin tab's table of visitor-days: one query in the day's one partition. */
export interface ActivityDays {
  /** The first `limit` visitor-day documents of the day (every store's) after `after`, first seen first, then by id. */
  pageOn(day: string, after: TablePlace | null, limit: number): Promise<VisitorDay[]>;
  /** Every visitor-day of these daily tokens on the day, each store's (one query). */
  ofTokens(day: string, tokens: readonly string[]): Promise<VisitorDay[]>;
  /** How long activity is kept, as this store says it, in words a page can show. */
  readonly retention: string;
}

/** Visitor-days in the order the table shows them: first seen first, then by id. */
export const firstSeenFirst = (a: VisitorDay, b: VisitorDay) =>
  a.first_seen === b.first_seen ? (a.id < b.id ? -1 : 1) : a.first_seen < b.first_seen ? -1 : 1;

/** Whether a visitor-day comes after a place in the table's order. */
export const isAfter = (doc: VisitorDay, place: TablePlace | null) =>
  place === null || doc.first_seen > place.first_seen || (doc.first_seen === place.first_seen && doc.id > place.id);
