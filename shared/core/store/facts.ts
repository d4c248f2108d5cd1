import type { VisitorKind } from '../identity/kinds';
import type { ActivityHour, VisitorDay } from './activity';
import type { Created, Marked } from './documents';
import type { ImportedTotals } from './imports';
import type { FirstTouch } from './first-touch';

/**
 * What a message's hits add to a visitor-day: the document without its partition, kind and the fold's fields, and
 * (kept on the fact only, for GET /api/admin/now) its requests by minute and path.
 */
export type VisitorDayPart = Omit<VisitorDay, 'pk' | 'kind' | 'visit' | 'folded_to'> & {
  /** Requests by `HH:MM` + path (the minute is the first five characters); absent on facts kept before it was. */
  minute_paths?: Record<string, number>;
};

/** What a message's hits add to a store's hour. */
export type HourPart = Omit<ActivityHour, 'pk' | 'kind' | 'folded_to'>;

/** One scan of a subject: when, by whom (the identity is the person hash or the visitor cookie's; null for self). */
export interface SubjectScan {
  subject: string;
  at: string;
  who: VisitorKind;
  identity: string | null;
}

/**
 * What one person did in one message on one day, for the goals: the person hash (the identity the subjects use too),
 * the first instant, and each event and path once. Only people's requests: never a bot's or the site's own.
 */
export interface GoalAction {
  person: string;
  at: string;
  events: string[];
  paths: string[];
  /** The person's first day counted among people, and their first touch, as their record held them when kept. */
  first?: string;
  touch?: FirstTouch;
}

/**
 * What one queue message adds on one UTC day (pk `<yyyy-MM-dd>`, id `fact:<message id>`), written once by keep-hits
 * and never changed: a create that finds it there means the message was kept before. The fold folds it into
 * the day's activity and the subjects; it expires after FACT_TTL_SECONDS, long after it was folded.
 */
export interface Fact {
  id: string;
  pk: string;
  kind: 'fact';
  day: string;
  message: string;
  hits: number;
  visitor_days: VisitorDayPart[];
  hours: HourPart[];
  scans: SubjectScan[];
  /** People's actions, for the goals (absent on facts kept before goals were). */
  actions?: GoalAction[];
  /** A day's totals imported from another tool (no visitor-days, hours or scans beside them); absent on every other fact. */
  imported?: ImportedTotals;
  ttl: number;
}

/**
 * How far back in days a fact's day may be and still be folded: a hit is refused at ingest past HIT_MAX_AGE_DAYS (at
 * most 365 by the setting's bound, 7 by default), a message lives 7 days on the queue and as long again in poison
 * each time it is replayed (at most a few times); past this a message is left in poison, never half kept.
 */
export const FOLD_DAYS = 45;

/** How long a fact is kept, in seconds: past any retry or replay of its message, and past the fold's reach. */
export const FACT_TTL_SECONDS = (FOLD_DAYS + 1) * 86_400;

/** The fact's id for a message. */
export const factId = (message: string) => `fact:${message}`;

/** The facts: keep-hits creates them; the fold reads a day's facts between two of the store's marks. */
export interface Facts {
  create(fact: Fact): Promise<Created>;
  /** The day's facts written after mark `after` and at or before `upTo`, each with its mark (one partition query). */
  on(day: string, after: number, upTo: number): Promise<Marked<Fact>[]>;
  /** The first `limit` of those, in the order of their marks (one partition query): one slice of a backlog. */
  firstOn(day: string, after: number, upTo: number, limit: number): Promise<Marked<Fact>[]>;
}
