import type { ActivityDocs, ActivityReader } from './activity';
import type { ActivityDays } from './activity-days';
import type { StoreSource, StoreStats } from './documents';
import type { Facts } from './facts';
import type { FoldLeases } from './fold-lease';
import type { FoldStates, StoreMarks } from './fold';
import type { VisitorsSummaryReader, VisitorsSummaries } from './summary';
import type { RecordCounts, VisitorRecords } from './visitors';
import type { VisitsSummaries } from './visits';
import type { SubjectsStore } from '../subjects/documents';
import type { RecentFacts } from './recent';
import type { DayRollups, RollupReader, VisitorDayPages } from './rollups';
import type { GoalsStore } from '../events/goal-documents';
import type { ImportLedgers, LandedImports } from './imports';
import type { PeriodReader, PeriodRollups } from './periods';
import type { SharedLinks } from './links';
import type { CohortsStore } from './cohorts';

/** What keep-hits writes: each visitor's record and each message's facts, nothing two visitors share. */
export interface KeepingStore {
  records: VisitorRecords;
  facts: Facts;
}

/** What the fold reads and writes to fold the facts and the records into everything counted. */
export interface FoldingStore {
  marks: StoreMarks;
  foldState: FoldStates;
  /** The lease a fold takes before folding, so one fold runs at a time. */
  foldLease: FoldLeases;
  facts: Pick<Facts, 'on' | 'firstOn'>;
  activity: ActivityDocs;
  recordCounts: RecordCounts;
  visitorsSummary: VisitorsSummaries;
  visits: VisitsSummaries;
  subjects: SubjectsStore;
  rollups: DayRollups;
  /** The month rollups and the filter cells, moved by the same slices as the day rollups. */
  periods: PeriodRollups;
  visitorDayPages: VisitorDayPages;
  /** The notes of imported messages kept, which name the old days the fold is to read. */
  landed: Pick<LandedImports, 'changed'>;
  /** Each goal's people all time, each person once. */
  goals: GoalsStore;
  /** The retention cells: each first month's (and week's) people by the months (and weeks) they came in. */
  cohorts: CohortsStore;
}

/** What keep-imports writes: what keep-hits writes, and one landed note a message once its facts are kept. */
export interface ImportKeepingStore extends KeepingStore {
  landed: Pick<LandedImports, 'create'>;
}

/**
 * The whole store as the composition root holds it: the writing ports, the reading ports (the count and activity),
 * where it keeps things, and what it has cost.
 */
export interface Store extends KeepingStore, Omit<FoldingStore, 'facts' | 'landed'>, StoreSource {
  landed: LandedImports;
  /** The import endpoint's ledger (the first day counted live). */
  importLedger: ImportLedgers;
  /** The visitors summary: the fold's conditional read and write, and the count's point read of its figures. */
  visitorsSummary: VisitorsSummaries & VisitorsSummaryReader;
  activityReader: ActivityReader;
  /** The day rollups of the days asked, for every Admin read. */
  rollupReader: RollupReader;
  /** The month rollups and filter cells of a period, one query a partition. */
  periodReader: PeriodReader;
  /** One day's visitor-days, for the Admin tab's table. */
  activityDays: ActivityDays;
  /** The last minutes' facts, for GET /api/admin/now. */
  recent: RecentFacts;
  /** The read-only links to a site's dashboard (kept with the first site's documents). */
  links: SharedLinks;
  stats(): StoreStats;
}

export type { ActivityDoc, ActivityDocs, ActivityHour, ActivityReader, VisitorDay } from './activity';
export type { ActivityDays } from './activity-days';
export type { Conditional, Created, Marked, Replaced, StoreSource, StoreStats, Versioned } from './documents';
export type { Fact, Facts, HourPart, SubjectScan, VisitorDayPart } from './facts';
export type { FoldState, FoldStates, StoreMarks } from './fold';
export type { FoldLeaseAnswer, FoldLeaseDoc, FoldLeases, HeldFoldLease } from './fold-lease';
export type { VisitorsSummaryReader, VisitorsSummaries, VisitorsSummary, PeopleFigures } from './summary';
export type { RecordChange, RecordCounts, VisitorRecord, VisitorRecords } from './visitors';
export type { VisitsSummaries, VisitsSummary } from './visits';
export type { ImportLedger, ImportLedgers, ImportedTotals, LandedImport, LandedImports } from './imports';
