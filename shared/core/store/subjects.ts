import type { Conditional, Created, Replaced, Versioned } from './documents';

/** One partition per subject: its summary and one document per visitor who scanned it. */
export const subjectPk = (subject: string) => `subject:${subject}`;

export const subjectVisitorId = (subject: string, identity: string) => `subject-visitor:${subject}:${identity}`;

export const subjectSummaryId = (subject: string) => `subject-summary:${subject}`;

export const VISITOR_COOKIES_PK = 'visitor-cookies';

/** Keyed by the cookie's keyed hash, never the cookie. */
export const visitorCookieId = (cookieHash: string) => `visitor-cookie:${cookieHash}`;

export interface SubjectDelta {
  /** People only, after the refresh window and the rate limit. */
  scans: number;
  /** Visitors counted for the first time on the subject. */
  unique: number;
  /** Scanners, crawlers and the site itself: reported apart, never people. */
  scanners: number;
  self: number;
  /** By UTC day. */
  by_day: Record<string, DayFigures>;
  first_scan: string | null;
  last_scan: string | null;
}

export interface DayFigures {
  scans: number;
  new: number;
}

/**
 * The beacon creates it to answer new or returning at once; the fold judges each scan against it in order.
 * The identity is a keyed hash, never a cookie.
 */
export interface SubjectVisitor {
  id: string;
  pk: string;
  kind: 'subject-visitor';
  subject: string;
  identity: string;
  /** The scan that created this document. */
  first_scan: string;
  /** Counted or not, the refresh window runs from it; null until a scan is judged. */
  last_seen: string | null;
  /** The rate limit runs from it; null until one is counted. */
  last_counted: string | null;
  scans: number;
  /** The store's watermark of the last fact judged here, 0 until one is. */
  folded_to: number;
  /** Each day's facts are read to their own watermark; a day absent holds to `folded_to`. */
  folded_days?: Record<string, number>;
  /** The identity is the derived person id (docs/design.md, Identity). */
  derived?: true;
}

/** Folded by the fold. */
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
  /** Written before the visitors' documents. */
  folded_to: number;
  /** Each day's facts are read to their own watermark; a day absent holds to `folded_to`. */
  folded_days?: Record<string, number>;
}

/** Links a cookie this app issued to its first request's identity, so a browser's scans are one visitor. */
export interface VisitorCookieLink {
  id: string;
  pk: typeof VISITOR_COOKIES_PK;
  kind: 'visitor-cookie';
  identity: string;
  /** As long as the cookie lives. */
  ttl: number;
  /** The identity is the derived person id (docs/design.md, Identity). */
  derived?: true;
}

export const SUBJECT_SORTS = ['subject', 'scans', 'unique', 'repeat', 'last_scan'] as const;
export type SubjectSort = (typeof SUBJECT_SORTS)[number];

export type SubjectRow = Pick<SubjectSummary, 'subject' | 'scans' | 'unique' | 'repeat' | 'scanners' | 'self' | 'first_scan' | 'last_scan'>;

/** `continuation` is the store's own, from the page before. */
export interface SubjectsPageQuery {
  sort: SubjectSort;
  order: 'asc' | 'desc';
  limit: number;
  continuation: string | null;
}

/** `continuation` is null on the last page. */
export interface SubjectsPage {
  rows: SubjectRow[];
  continuation: string | null;
}

export interface SubjectsStore {
  visitors: Conditional<SubjectVisitor, [subject: string, identity: string]> & {
    /** One partition query. */
    of(subject: string, identities: readonly string[]): Promise<Versioned<SubjectVisitor>[]>;
  };
  summaries: Conditional<SubjectSummary, [subject: string]>;
  cookies: {
    read(cookieHash: string): Promise<VisitorCookieLink | null>;
    create(link: VisitorCookieLink): Promise<Created>;
    /** The person-ids migration's: links not yet derived, at most `limit`, and their replacement (If-Match). */
    unmoved(limit: number): Promise<Array<Versioned<VisitorCookieLink>>>;
    replace(link: VisitorCookieLink, etag: string): Promise<Replaced>;
  };
  /** `bad-continuation` when the store cannot read the continuation. */
  list(query: SubjectsPageQuery): Promise<SubjectsPage | 'bad-continuation'>;
  /** The person-ids migration's: visitors' documents not yet derived (across subjects), and the removal of a moved one. */
  moves: {
    unmoved(limit: number): Promise<SubjectVisitor[]>;
    /** A removal that finds nothing is done. */
    remove(subject: string, id: string): Promise<void>;
  };
}
