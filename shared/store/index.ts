import type { ActivityDocs, ActivityReader } from './activity';
import type { ActivityDays } from './activity-days';
import type { StoreSource, StoreStats } from './documents';
import type { Receipts } from './receipts';
import type { VisitorsReader, VisitorsSummaries } from './summary';
import type { VisitorRecords } from './visitors';
import type { VisitorDayChanges, VisitsSummaries } from './visits';
import type { VisitorCensus } from './reconcile';
import type { SubjectsStore } from '../subjects/documents';

/**
 * Where keep-hits keeps what it keeps, split by concern: the visitor records, the visitors summary, the activity
 * documents and the receipts of finished messages. Every write is conditional (see documents.ts).
 */
export interface KeepingStore {
  records: VisitorRecords;
  summary: VisitorsSummaries;
  activity: ActivityDocs;
  receipts: Receipts;
}

/**
 * The whole store as the composition root holds it: the writing ports, the reading ports (the count and activity),
 * where it keeps things, and what it has cost. Another read port is added beside these, not inside them.
 */
export interface Store extends KeepingStore, StoreSource {
  visitors: VisitorsReader;
  activityReader: ActivityReader;
  /** One day's visitor-days, for the Admin tab's table. */
  activityDays: ActivityDays;
  /** The visits by people the recount keeps (issue 4). */
  visits: VisitsSummaries;
  /** Which days' activity changed since the recount last read it (issue 4). */
  visitorDayChanges: VisitorDayChanges;
  /** Aggregate counts over the visitor records, for reconciling the visitors summary (issue 4). */
  census: VisitorCensus;
  /** Per-subject scans, the visitors' documents on each subject and the visitor cookies' links (issue 6). */
  subjects: SubjectsStore;
  stats(): StoreStats;
}

export type { ActivityDoc, ActivityDocs, ActivityHour, ActivityReader, VisitorDay } from './activity';
export type { ActivityDays } from './activity-days';
export type { Applied, Conditional, Created, Replaced, StoreSource, StoreStats, Versioned } from './documents';
export type { Receipt, Receipts } from './receipts';
export type { SummaryDelta, VisitorsReader, VisitorsSummaries, VisitorsSummary, VisitorsTally } from './summary';
export type { VisitorRecord, VisitorRecords } from './visitors';
export type { VisitorDayChanges, VisitsSummaries, VisitsSummary } from './visits';
export type { PendingChange, RecordCensus, VisitorCensus } from './reconcile';
