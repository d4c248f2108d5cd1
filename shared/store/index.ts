import type { ActivityDocs, ActivityReader } from './activity';
import type { ActivityDays } from './activity-days';
import type { StoreSource, StoreStats } from './documents';
import type { Facts } from './facts';
import type { FoldStates, StoreMarks } from './fold';
import type { VisitorsSummaryReader, VisitorsSummaries } from './summary';
import type { RecordCounts, VisitorRecords } from './visitors';
import type { VisitsSummaries } from './visits';
import type { SubjectsStore } from '../subjects/documents';
import type { RecentFacts } from '../now/recent';
import type { VisitorDayRange } from '../export/range';

/** What keep-hits writes: each visitor's record and each message's facts, nothing two visitors share. */
export interface KeepingStore {
  records: VisitorRecords;
  facts: Facts;
}

/** What the recount timer reads and writes to fold the facts and the records into everything counted. */
export interface FoldingStore {
  marks: StoreMarks;
  foldState: FoldStates;
  facts: Pick<Facts, 'on'>;
  activity: ActivityDocs;
  recordCounts: RecordCounts;
  summary: VisitorsSummaries;
  visits: VisitsSummaries;
  subjects: SubjectsStore;
}

/**
 * The whole store as the composition root holds it: the writing ports, the reading ports (the count and activity),
 * where it keeps things, and what it has cost.
 */
export interface Store extends KeepingStore, Omit<FoldingStore, 'facts'>, StoreSource {
  visitorsSummary: VisitorsSummaryReader;
  activityReader: ActivityReader;
  /** One day's visitor-days, for the Admin tab's table. */
  activityDays: ActivityDays;
  /** The last minutes' facts, for GET /api/admin/now. */
  recent: RecentFacts;
  /** The visitor-days of a range of days, for GET /api/admin/export. */
  dayRange: VisitorDayRange;
  stats(): StoreStats;
}

export type { ActivityDoc, ActivityDocs, ActivityHour, ActivityReader, VisitorDay } from './activity';
export type { ActivityDays } from './activity-days';
export type { Conditional, Created, Marked, Replaced, StoreSource, StoreStats, Versioned } from './documents';
export type { Fact, Facts, HourPart, SubjectScan, VisitorDayPart } from './facts';
export type { FoldState, FoldStates, StoreMarks } from './fold';
export type { VisitorsSummaryReader, VisitorsSummaries, VisitorsSummary, PeopleFigures } from './summary';
export type { RecordChange, RecordCounts, VisitorRecord, VisitorRecords } from './visitors';
export type { VisitsSummaries, VisitsSummary } from './visits';
