import { cosmosEmail } from './email';
import type { PersonMoved } from '../../shared/core/store/person-moves';
import { migrationId, type MigrationDoc } from '../../shared/core/store/migrations';
import type { Container } from '@azure/cosmos';
import { ALL_SITES_FROM_ID, type AllSitesFrom } from '../../shared/core/store/all-sites';
import { TIME_ZONES_ID, type TimeZones } from '../../shared/core/store/time-zones';
import type { ActivityHour, Fact, Store, VisitorRecord, VisitorsSummary } from '../../shared/core/store';
import { peopleFiguresOf, VISITORS_SUMMARY_ID } from '../../shared/core/store/summary';
import { VISITORS_PK } from '../../shared/core/store/visitors';
import { CosmosDocuments } from './documents';
import type { DayFiles } from '../../shared/core/store/day-files';
import type { SiteScope } from '../../shared/core/sites/keys';
import { cosmosGoals } from './goals';
import { cosmosCohorts } from './cohorts';
import { DAY_ROLLUP_ID, type DayRollup } from '../../shared/core/store/rollups';
import { boundedMap } from '../../shared/core/bounded-map';
import type { PeriodRollup } from '../../shared/core/store/periods';

/** Point reads are the cheapest call Cosmos DB has. */
const ROLLUP_READS_AT_ONCE = 16;
import { cosmosFolding } from './folding';
import { cosmosFoldLeases } from './fold-lease';
import { cosmosActivityDays } from './activity-days';
import { cosmosSubjects } from './subjects';
import { cosmosRecentFacts } from './audience';
import { cosmosLinks } from './links';
import { cosmosApiKeys } from './api-keys';
import { CONFIG_ID, CONFIG_PK, type ConfigDoc } from '../../shared/core/store/config';
import { cosmosGuesses } from './guesses';
import { cosmosSessions } from './sessions';
import { cosmosDaySecrets } from './day-secrets';
import { cosmosOldDays } from './old-days';
import { packFact } from './packed-facts';
import { IMPORT_LEDGER_ID, IMPORTS_PK, landedId, type ImportLedger, type LandedImport } from '../../shared/core/store/imports';

const oldestFirst =
  <T extends { pk: string; id: string }>(key: (doc: T) => string) =>
  (a: T, b: T) =>
    key(a) === key(b) ? (a.id < b.id ? -1 : 1) : key(a) < key(b) ? -1 : 1;

export interface CosmosStoreOptions {
  settleSeconds: number;
  name?: string;
  /** A deployment of one site's by default. */
  scope?: SiteScope;
  /** None by default: every day is read from the store. */
  dayFiles?: DayFiles;
}

/** Creates that answer 409, point reads, If-Match replaces and partition-scoped queries: nothing needs a transaction. */
export function cosmosStore(
  container: Container,
  options: CosmosStoreOptions = { settleSeconds: 10 },
): Store & { documents: CosmosDocuments } {
  const documents = new CosmosDocuments(container, options.scope);
  // The checks of keys and sessions are counted apart, so a use case's store calls are its own.
  const access = new CosmosDocuments(container, options.scope);
  const folding = cosmosFolding(documents, options.settleSeconds);
  return {
    documents,
    source: `kept in ${options.name ?? 'Azure Cosmos DB'} (${container.database.id}/${container.id}) with no expiry for people`,
    records: {
      read: (hash) => documents.read<VisitorRecord>(VISITORS_PK, hash),
      create: (doc) => documents.create(doc),
      replace: (doc, etag) => documents.replace(doc, etag),
    },
    ...folding,
    dayFiles: options.dayFiles ?? null,
    foldLease: cosmosFoldLeases(documents),
    personMoves: {
      at: {
        read: (id) => documents.read<VisitorRecord | PersonMoved>(VISITORS_PK, id),
        create: (doc) => documents.create(doc),
        replace: (doc, etag) => documents.replace(doc, etag),
      },
      unmoved: (limit) =>
        documents.queryMarked<VisitorRecord>(
          `SELECT TOP ${Math.max(1, Math.floor(limit))} * FROM c WHERE c.kind = 'visitor-record' AND NOT IS_DEFINED(c.derived)`,
          [],
          VISITORS_PK,
        ),
      movedBy: (slice) =>
        documents.query<PersonMoved>(
          "SELECT * FROM c WHERE c.kind = 'person-moved' AND c.slice = @slice",
          [{ name: '@slice', value: slice }],
          VISITORS_PK,
        ),
    },
    migrations: {
      read: (name) => documents.read<MigrationDoc>(VISITORS_PK, migrationId(name)),
      create: (doc) => documents.create(doc),
      replace: (doc, etag) => documents.replace(doc, etag),
    },
    landed: {
      create: (note: LandedImport) => documents.create(note),
      has: async (message) => (await documents.read<LandedImport>(IMPORTS_PK, landedId(message))) !== null,
      changed: folding.landed.changed,
    },
    importLedger: {
      read: () => documents.read<ImportLedger>(VISITORS_PK, IMPORT_LEDGER_ID),
      create: (doc) => documents.create(doc),
      replace: (doc, etag) => documents.replace(doc, etag),
    },
    allSitesFrom: {
      read: () => documents.read<AllSitesFrom>(VISITORS_PK, ALL_SITES_FROM_ID),
      create: (doc) => documents.create(doc),
      replace: (doc, etag) => documents.replace(doc, etag),
    },
    timeZones: {
      read: () => documents.read<TimeZones>(VISITORS_PK, TIME_ZONES_ID),
      create: (doc) => documents.create(doc),
      replace: (doc, etag) => documents.replace(doc, etag),
    },
    facts: { create: (fact: Fact) => documents.create(packFact(fact)), on: folding.facts.on, firstOn: folding.facts.firstOn },
    visitorsSummary: {
      ...folding.visitorsSummary,
      peopleFrom: async (day) =>
        peopleFiguresOf((await documents.read<VisitorsSummary>(VISITORS_PK, VISITORS_SUMMARY_ID))?.doc ?? null, day),
    },
    activityReader: {
      hoursOn: async (days) => {
        const found: ActivityHour[] = [];
        await boundedMap(days, ROLLUP_READS_AT_ONCE, async (day) => {
          found.push(...(await documents.query<ActivityHour>("SELECT * FROM c WHERE c.kind = 'activity-hour'", [], day)));
        });
        return found.sort(oldestFirst<ActivityHour>((doc) => doc.hour));
      },
    },
    rollupReader: {
      onDays: async (days) => {
        const found = new Map<string, DayRollup>();
        await boundedMap(days, ROLLUP_READS_AT_ONCE, async (day) => {
          const read = await documents.read<DayRollup>(day, DAY_ROLLUP_ID);
          if (read !== null) found.set(day, read.doc);
        });
        return found;
      },
    },
    periodReader: {
      inPartition: (pk, spans) =>
        documents.query<PeriodRollup>(
          "SELECT * FROM c WHERE c.kind = 'period-rollup' AND ((c.span = 'day' AND ARRAY_CONTAINS(@days, c.at)) OR (c.span = 'month' AND ARRAY_CONTAINS(@months, c.at)) OR (c.span = 'year' AND ARRAY_CONTAINS(@years, c.at)))",
          [
            { name: '@days', value: [...spans.day] },
            { name: '@months', value: [...spans.month] },
            { name: '@years', value: [...spans.year] },
          ],
          pk,
        ),
    },
    activityDays: cosmosActivityDays(documents, options.name),
    subjects: cosmosSubjects(container, documents),
    goals: cosmosGoals(documents),
    cohorts: cosmosCohorts(documents),
    recent: cosmosRecentFacts(documents),
    links: cosmosLinks(documents),
    apiKeys: cosmosApiKeys(documents),
    email: cosmosEmail(documents),
    config: {
      read: () => documents.read<ConfigDoc>(CONFIG_PK, CONFIG_ID),
      create: (doc) => documents.create(doc),
      replace: (doc, etag) => documents.replace(doc, etag),
    },
    guesses: cosmosGuesses(access),
    sessions: cosmosSessions(access),
    secrets: cosmosDaySecrets(documents),
    oldDays: cosmosOldDays(documents),
    stats: () => ({ ...documents.counts }),
  };
}
