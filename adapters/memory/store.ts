import { memoryEmail } from './email';
import { memoryDayFiles } from './day-files';
import type { PersonMoved } from '../../shared/core/store/person-moves';
import { migrationId, type MigrationDoc } from '../../shared/core/store/migrations';
import type { ActivityHour, Fact, Store, VisitorRecord, VisitorsSummary } from '../../shared/core/store';
import { ALL_SITES_FROM_ID, type AllSitesFrom } from '../../shared/core/store/all-sites';
import { TIME_ZONES_ID, type TimeZones } from '../../shared/core/store/time-zones';
import { memoryLinks } from './links';
import { memoryApiKeys } from './api-keys';
import { CONFIG_ID, CONFIG_PK, type ConfigDoc } from '../../shared/core/store/config';
import { memoryGuesses } from './guesses';
import { memorySessions } from './sessions';
import { memoryDaySecrets } from './day-secrets';
import { memoryOldDays } from './old-days';
import { peopleFiguresOf, VISITORS_SUMMARY_ID } from '../../shared/core/store/summary';
import { VISITORS_PK } from '../../shared/core/store/visitors';
import { MemoryDocuments } from './documents';
import { memoryGoals } from './goals';
import { memoryCohorts } from './cohorts';
import { DAY_ROLLUP_ID, type DayRollup } from '../../shared/core/store/rollups';
import type { PeriodRollup } from '../../shared/core/store/periods';
import { memoryFolding } from './folding';
import { memoryFoldLeases } from './fold-lease';
import { memoryActivityDays } from './activity-days';
import { memorySubjects } from './subjects';
import { memoryRecentFacts } from './audience';
import { IMPORT_LEDGER_ID, IMPORTS_PK, landedId, type ImportLedger, type LandedImport } from '../../shared/core/store/imports';

/** So the count never passes memory off as kept. */
export const MEMORY_SOURCE = 'kept in memory (lost on restart): STORE is memory, so nothing outlives this process';

const oldestFirst =
  <T extends { id: string }>(key: (doc: T) => string) =>
  (a: T, b: T) =>
    key(a) === key(b) ? (a.id < b.id ? -1 : 1) : key(a) < key(b) ? -1 : 1;

export function memoryStore(documents = new MemoryDocuments()): Store & { documents: MemoryDocuments } {
  const resolved = <T>(value: T) => Promise.resolve(value);
  const folding = memoryFolding(documents);
  const access = new MemoryDocuments();
  return {
    documents,
    source: MEMORY_SOURCE,
    records: {
      read: (hash) => resolved(documents.read<VisitorRecord>(VISITORS_PK, hash)),
      create: (doc) => resolved(documents.create(doc)),
      replace: (doc, etag) => resolved(documents.replace(doc, etag)),
    },
    ...folding,
    dayFiles: memoryDayFiles(),
    foldLease: memoryFoldLeases(documents),
    personMoves: {
      at: {
        read: (id) => resolved(documents.read<VisitorRecord | PersonMoved>(VISITORS_PK, id)),
        create: (doc) => resolved(documents.create(doc)),
        replace: (doc, etag) => resolved(documents.replace(doc, etag)),
      },
      unmoved: (limit) =>
        resolved(
          documents
            .queryMarked<VisitorRecord>((doc) => doc.kind === 'visitor-record' && doc.derived === undefined, VISITORS_PK)
            .slice(0, limit),
        ),
      movedBy: (slice) => resolved(documents.query<PersonMoved>((doc) => doc.kind === 'person-moved' && doc.slice === slice, VISITORS_PK)),
    },
    migrations: {
      read: (name) => resolved(documents.read<MigrationDoc>(VISITORS_PK, migrationId(name))),
      create: (doc) => resolved(documents.create(doc)),
      replace: (doc, etag) => resolved(documents.replace(doc, etag)),
    },
    landed: {
      create: (note: LandedImport) => resolved(documents.create(note)),
      has: (message) => resolved(documents.read<LandedImport>(IMPORTS_PK, landedId(message)) !== null),
      changed: folding.landed.changed,
    },
    importLedger: {
      read: () => resolved(documents.read<ImportLedger>(VISITORS_PK, IMPORT_LEDGER_ID)),
      create: (doc) => resolved(documents.create(doc)),
      replace: (doc, etag) => resolved(documents.replace(doc, etag)),
    },
    allSitesFrom: {
      read: () => resolved(documents.read<AllSitesFrom>(VISITORS_PK, ALL_SITES_FROM_ID)),
      create: (doc) => resolved(documents.create(doc)),
      replace: (doc, etag) => resolved(documents.replace(doc, etag)),
    },
    timeZones: {
      read: () => resolved(documents.read<TimeZones>(VISITORS_PK, TIME_ZONES_ID)),
      create: (doc) => resolved(documents.create(doc)),
      replace: (doc, etag) => resolved(documents.replace(doc, etag)),
    },
    facts: { create: (fact: Fact) => resolved(documents.create(fact)), on: folding.facts.on, firstOn: folding.facts.firstOn },
    visitorsSummary: {
      ...folding.visitorsSummary,
      peopleFrom: (since) =>
        resolved(peopleFiguresOf(documents.read<VisitorsSummary>(VISITORS_PK, VISITORS_SUMMARY_ID)?.doc ?? null, since)),
    },
    activityReader: {
      hoursOn: (days) =>
        resolved(
          documents
            .query<ActivityHour>((doc) => doc.kind === 'activity-hour' && days.includes(doc.pk))
            .sort(oldestFirst<ActivityHour>((doc) => doc.hour)),
        ),
    },
    rollupReader: {
      onDays: (days) =>
        resolved(
          new Map(
            days.flatMap((day) => {
              const read = documents.read<DayRollup>(day, DAY_ROLLUP_ID);
              return read === null ? [] : [[day, read.doc] as const];
            }),
          ),
        ),
    },
    periodReader: {
      inPartition: (pk, spans) =>
        resolved(documents.query<PeriodRollup>((doc) => doc.kind === 'period-rollup' && spans[doc.span].includes(doc.at), pk)),
    },
    activityDays: memoryActivityDays(documents),
    subjects: memorySubjects(documents),
    goals: memoryGoals(documents),
    cohorts: memoryCohorts(documents),
    recent: memoryRecentFacts(documents),
    links: memoryLinks(documents),
    apiKeys: memoryApiKeys(documents),
    email: memoryEmail(documents),
    config: {
      read: () => resolved(documents.read<ConfigDoc>(CONFIG_PK, CONFIG_ID)),
      create: (doc) => resolved(documents.create(doc)),
      replace: (doc, etag) => resolved(documents.replace(doc, etag)),
    },
    // The checks of keys and sessions are counted apart, so a use case's store calls are its own.
    guesses: memoryGuesses(access),
    sessions: memorySessions(access),
    secrets: memoryDaySecrets(documents),
    oldDays: memoryOldDays(documents),
    stats: () => ({ ...documents.counts }),
  };
}
