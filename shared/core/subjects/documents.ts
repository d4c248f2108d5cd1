import type { Conditional, Created, Versioned } from '../store/documents';

/** The partition of one subject's documents: its summary and one document per visitor who scanned it. */
export const subjectPk = (subject: string) => `subject:${subject}`;

/** The id of one visitor's document on one subject. */
export const subjectVisitorId = (subject: string, identity: string) => `subject-visitor:${subject}:${identity}`;

/** The id of a subject's summary. */
export const subjectSummaryId = (subject: string) => `subject-summary:${subject}`;

/** The partition of the visitor cookies' links. */
export const VISITOR_COOKIES_PK = 'visitor-cookies';

/** The id of a visitor cookie's link, by the keyed hash of the cookie (never the cookie itself). */
export const visitorCookieId = (cookieHash: string) => `visitor-cookie:${cookieHash}`;

/** What a fold run adds to a subject's summary. */
export interface SubjectDelta {
  /** Scans counted (people only, after the refresh window and the rate limit). */
  scans: number;
  /** Visitors whose first counted scan of the subject this is. */
  unique: number;
  /** Scans by scanners and crawlers, and by the site itself: reported apart, never people. */
  scanners: number;
  self: number;
  /** Counted scans and new visitors by UTC day. */
  by_day: Record<string, DayFigures>;
  first_scan: string | null;
  last_scan: string | null;
}

/** One day's figures of a subject. */
export interface DayFigures {
  scans: number;
  new: number;
}

/**
 * One identity on one subject (pk `subject:<subject>`, id `subject-visitor:<subject>:<identity>`). The beacon creates
 * it to answer new or returning at once (a create that finds it there is a returning visitor); the fold
 * judges each scan against it, in the order of the scans. The identity is a keyed hash (the person hash, or the hash of the visitor cookie), never a cookie.
 */
export interface SubjectVisitor {
  id: string;
  pk: string;
  kind: 'subject-visitor';
  subject: string;
  identity: string;
  /** The first scan seen of this identity on this subject: the one that created this document. */
  first_scan: string;
  /** The latest scan judged, counted or not (the refresh window runs from it); null until keep-hits judges one. */
  last_seen: string | null;
  /** The latest counted scan (the rate limit runs from it); null until one is counted. */
  last_counted: string | null;
  /** Counted scans. */
  scans: number;
  /** The store's mark of the last fact whose scans are judged here (0 until the fold judges one), on every day. */
  folded_to: number;
  /** The same by day, as the fold reads each day's facts to its own mark; a day absent holds to `folded_to`. */
  folded_days?: Record<string, number>;
}

/** One subject's figures, folded by the fold (pk `subject:<subject>`, id `subject-summary:<subject>`). */
export interface SubjectSummary {
  id: string;
  pk: string;
  kind: 'subject-summary';
  subject: string;
  scans: number;
  unique: number;
  /** scans − unique, kept so the list can be sorted by it. */
  repeat: number;
  scanners: number;
  self: number;
  first_scan: string | null;
  last_scan: string | null;
  by_day: Record<string, DayFigures>;
  /** The store's mark of the last fact folded in: the fold writes it before the visitors' documents. */
  folded_to: number;
  /** The same by day, as the fold reads each day's facts to its own mark; a day absent holds to `folded_to`. */
  folded_days?: Record<string, number>;
}

/**
 * A visitor cookie this app issued, linked to the identity its first request was counted under (pk `visitor-cookies`,
 * id `visitor-cookie:<keyed hash of the cookie>`): so the browser's first scan and its later ones are one visitor.
 */
export interface VisitorCookieLink {
  id: string;
  pk: typeof VISITOR_COOKIES_PK;
  kind: 'visitor-cookie';
  identity: string;
  /** Kept as long as the cookie lives. */
  ttl: number;
}

/** The fields the subjects list can be sorted by. */
export const SUBJECT_SORTS = ['subject', 'scans', 'unique', 'repeat', 'last_scan'] as const;
export type SubjectSort = (typeof SUBJECT_SORTS)[number];

/** One row of the subjects list. */
export type SubjectRow = Pick<SubjectSummary, 'subject' | 'scans' | 'unique' | 'repeat' | 'scanners' | 'self' | 'first_scan' | 'last_scan'>;

/** One page of the list asked of the store; `continuation` is the store's own, from the page before. */
export interface SubjectsPageQuery {
  sort: SubjectSort;
  order: 'asc' | 'desc';
  limit: number;
  continuation: string | null;
}

/** One page of the list, and the store's continuation to the next (null on the last). */
export interface SubjectsPage {
  rows: SubjectRow[];
  continuation: string | null;
}

/** Where the subjects are kept: conditional writes, the cookie links, and the paged list. */
export interface SubjectsStore {
  visitors: Conditional<SubjectVisitor, [subject: string, identity: string]> & {
    /** The documents of these identities on the subject (one partition query). */
    of(subject: string, identities: readonly string[]): Promise<Versioned<SubjectVisitor>[]>;
  };
  summaries: Conditional<SubjectSummary, [subject: string]>;
  cookies: {
    read(cookieHash: string): Promise<VisitorCookieLink | null>;
    create(link: VisitorCookieLink): Promise<Created>;
  };
  /** One page of every subject's summary, sorted; `bad-continuation` when the store cannot read the continuation. */
  list(query: SubjectsPageQuery): Promise<SubjectsPage | 'bad-continuation'>;
}
