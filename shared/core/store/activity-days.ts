import type { VisitorDay } from './activity';

/** After this visitor-day, in the table's order. */
export interface TablePlace {
  first_seen: string;
  id: string;
}

/** One query in the day's partition. */
export interface ActivityDays {
  /** First seen first, then by id. */
  pageOn(day: string, after: TablePlace | null, limit: number): Promise<VisitorDay[]>;
  ofTokens(day: string, tokens: readonly string[]): Promise<VisitorDay[]>;
  /** In words a page can show. */
  readonly retention: string;
}

export const firstSeenFirst = (a: VisitorDay, b: VisitorDay) =>
  a.first_seen === b.first_seen ? (a.id < b.id ? -1 : 1) : a.first_seen < b.first_seen ? -1 : 1;

export const isAfter = (doc: VisitorDay, place: TablePlace | null) =>
  place === null || doc.first_seen > place.first_seen || (doc.first_seen === place.first_seen && doc.id > place.id);
