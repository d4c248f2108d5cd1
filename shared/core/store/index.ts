import type { ActivityDocs, ActivityReader } from './activity';
import type { ActivityDays } from './activity-days';
import type { StoreSource, StoreStats } from './documents';
import type { Facts } from './facts';
import type { FoldLeases } from './fold-lease';
import type { Migrations } from './migrations';
import type { PersonMoves } from './person-moves';
import type { FoldStates, StoreMarks } from './fold';
import type { OldDays } from './old-days';
import type { VisitorsSummaryReader, VisitorsSummaries } from './summary';
import type { RecordCounts, VisitorRecords } from './visitors';
import type { VisitsSummaries } from './visits';
import type { SubjectsStore } from './subjects';
import type { RecentFacts } from './recent';
import type { DayRollups, RollupReader, VisitorDayPages } from './rollups';
import type { GoalsStore } from './goals';
import type { ImportLedgers, LandedImports } from './imports';
import type { PeriodReader, PeriodRollups } from './periods';
import type { SharedLinks } from './links';
import type { ApiKeys } from './api-keys';
import type { ConfigDocs } from './config';
import type { EmailStore } from './email';
import type { GuessCounts } from './guesses';
import type { AdminSessions } from './sessions';
import type { CohortsStore } from './cohorts';
import type { DaySecrets } from './day-secrets';
import type { AllSitesFromDocs } from './all-sites';
import type { TimeZonesDocs } from './time-zones';
import type { DayFiles } from './day-files';

/** Only each visitor's record and each message's facts, nothing two visitors share. */
export interface KeepingStore {
  records: VisitorRecords;
  facts: Facts;
}

export interface FoldingStore {
  watermarks: StoreMarks;
  foldState: FoldStates;
  /** So one fold runs at a time. */
  foldLease: FoldLeases;
  /** Each named migration's progress (shared/fold/migrations). */
  migrations: Migrations;
  facts: Pick<Facts, 'on' | 'firstOn'>;
  activity: ActivityDocs;
  recordCounts: RecordCounts;
  visitorsSummary: VisitorsSummaries;
  visits: VisitsSummaries;
  subjects: SubjectsStore;
  rollups: DayRollups;
  /** Moved by the same slices as the day rollups. */
  periods: PeriodRollups;
  visitorDayPages: VisitorDayPages;
  /** Closed days' columnar copies, written by the fold; null where there is no Blob Storage. */
  dayFiles: DayFiles | null;
  /** They name the old days the fold is to read. */
  landed: Pick<LandedImports, 'changed'>;
  goals: GoalsStore;
  /** Each first month's and week's people by the months and weeks they came in. */
  cohorts: CohortsStore;
}

/** Plus one landed note a message once its facts are kept. */
export interface ImportKeepingStore extends KeepingStore {
  landed: Pick<LandedImports, 'create'>;
}

export interface Store extends KeepingStore, Omit<FoldingStore, 'facts' | 'landed'>, StoreSource {
  landed: LandedImports;
  /** The person-ids migration's view of the visitor records (shared/fold/migrations/person-ids.ts). */
  personMoves: PersonMoves;
  /** Holds the first day counted live. */
  importLedger: ImportLedgers;
  /** Only `*`'s holds one: the first day all sites are kept together. */
  allSitesFrom: AllSitesFromDocs;
  /** The zones the site's days were kept in, when any is not UTC. */
  timeZones: TimeZonesDocs;
  visitorsSummary: VisitorsSummaries & VisitorsSummaryReader;
  activityReader: ActivityReader;
  rollupReader: RollupReader;
  /** One query a partition. */
  periodReader: PeriodReader;
  /** For the Admin tab's table. */
  activityDays: ActivityDays;
  /** For GET /api/admin/now. */
  recent: RecentFacts;
  /** Kept with the first site's documents. */
  links: SharedLinks;
  apiKeys: ApiKeys;
  /** Recipients, their links' tokens, mail claims and alert episodes, in the first site's store. */
  email: EmailStore;
  /** The deployment's configuration, in the first site's store only. */
  config: ConfigDocs;
  /** Wrong guesses at the app's secrets, by secret and address. */
  guesses: GuessCounts;
  /** The Admin sessions signed in and not yet out. */
  sessions: AdminSessions;
  /** Each day's secret, kept with the first site's documents since every site's tokens of a day use it. */
  secrets: DaySecrets;
  /** The days kept before the day's secrets, as their migration reads and writes them. */
  oldDays: OldDays;
  stats(): StoreStats;
}

export type { ActivityDoc, ActivityDocs, ActivityHour, ActivityReader, VisitorDay } from './activity';
export type { ActivityDays } from './activity-days';
export type { Conditional, Created, Watermarked, Replaced, StoreSource, StoreStats, Versioned } from './documents';
export type { Fact, Facts, HourPart, SubjectScan, VisitorDayPart } from './facts';
export type { FoldState, FoldStates, StoreMarks } from './fold';
export type { FoldLeaseAnswer, FoldLeaseDoc, FoldLeases, HeldFoldLease } from './fold-lease';
export type { VisitorsSummaryReader, VisitorsSummaries, VisitorsSummary, PeopleFigures } from './summary';
export type { RecordChange, RecordCounts, VisitorRecord, VisitorRecords } from './visitors';
export type { VisitsSummaries, VisitsSummary } from './visits';
export type { ImportLedger, ImportLedgers, ImportedTotals, LandedImport, LandedImports } from './imports';
