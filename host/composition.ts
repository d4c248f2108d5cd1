import { ManagedIdentityCredential, type TokenCredential } from '@azure/identity';
import { describeProblems, readSettings, type Settings } from './settings';
import { backgroundScheduler, systemClock, systemScheduler, type Clock, type Scheduler } from '../shared/core/ports/clock';
import { consoleLogger, type Logger } from '../shared/core/ports/logger';
import type { HitQueue } from '../shared/core/ports/queue';
import { hitSender } from '../shared/ingest/hit-sender';
import { daySecretKeeper, type DaySecretDeps, type DaySecretKeeper, type HitDaysOf } from '../shared/ingest/day-secrets';
import { zoneBook, type Zone } from '../shared/core/zone';
import { daysOrSet, sharedDays, siteZones, type SiteDays } from '../shared/core/sites/zones';
import { utcDay } from '../shared/core/identity/tokens';
import { emptyVisitorsSummary } from '../shared/core/store/summary';
import { emptyVisits } from '../shared/core/store/visits';
import { allSitesReads, type EarlierDays } from '../shared/read/all-sites';
import { markAllSitesFrom } from '../shared/fold/all-sites-from';
import type { PoisonQueue, ReplayLedger } from '../shared/core/ports/poison';
import type { IdentityRules } from '../shared/ingest/classify';
import type { ReceiveDeps } from '../shared/ingest/receive';
import { azureHitQueue, queueClient, type QueueLocation } from '../adapters/azure-hit-queue';
import type { Store } from '../shared/core/store';
import { cosmosContainer } from '../adapters/cosmos/client';
import { cosmosStore } from '../adapters/cosmos/store';
import { memoryStore } from '../adapters/memory/store';
import { azurePoisonQueue } from '../adapters/azure-poison-queue';
import { blobCall, blobLocationFromConnectionString, type BlobCall, type BlobLocation } from '../adapters/azure-blob';
import { blobReplayLedger } from '../adapters/azure-replay-ledger';
import { blobDayFiles } from '../adapters/day-files/blob-day-files';
import { DuckEngine } from '../adapters/day-files/duckdb';
import { packagedCountries } from '../adapters/files/countries';
import { hostingNetworks } from '../adapters/files/networks';
import { assetShelf, partsVersions } from '../adapters/files/assets';
import type { HostingNetworks } from '../shared/core/identity/network-table';
import type { CountryLookup } from '../shared/core/identity/country';
import type { ImportDeps } from '../shared/ingest/import/receive';
import { importQueueName } from '../shared/ingest/import/queue-name';
import type { OperatorSettings } from './http/admin/auth';
import { guesses } from '../shared/core/guesses';
import { agentVerdicts } from '../shared/core/identity/agent';
import { TIMER_FOLD_BUDGET } from '../shared/fold/budget';
import { keepMemory } from '../shared/keep/keep';
import type { MarkSettings } from './http/mark';
import { ASSETS, DASHBOARD, type AssetShelf } from '../shared/contract/assets';
import type { ReplayEveryDeps } from '../shared/keep/replay';
import { scanRules } from '../shared/core/subjects/scan-rule';
import { ONE_SITE, scopeOf, type SiteScope } from '../shared/core/sites/keys';
import { allOrigins, allSitesZone, ALL_SITES, declaredSites, type Site } from '../shared/core/sites/sites';
import type { SiteBook, SiteRoot, Sites } from './site-root';
import type { LinkAdminDeps } from '../shared/read/links/manage';
import type { SharedReadDeps } from './http/shared-link';
import type { KeyReadDeps } from './http/api-key';
import type { KeyAdminDeps } from '../shared/read/keys/manage';
import { KEY_USES_AN_HOUR } from '../shared/read/keys/uses';
import type { SiteReads } from '../shared/read/links/shared';
import { derivePersonId } from '../shared/core/identity/person-id';
import { personIds } from '../shared/core/person-ids';
import { storeSwitch, type PersonIdDerivations } from './person-switch';
import { switchedPersonIds } from '../shared/ingest/persons';
import { oldDaysMigration } from '../shared/fold/migrations/old-days';
import { errorLine } from '../shared/core/errors';
import { firstKeptDay } from '../shared/core/store/first-day';
import { configSource, type ConfigSource } from '../shared/core/config/source';
import { funnelsOf, goalsOfSite } from '../shared/core/config/goals';
import { funnelBackMigration, goalBackMigration } from '../shared/fold/migrations/goal-back';
import { dayFilesMigration } from '../shared/fold/migrations/day-files';
import type { ConfigAdminDeps } from '../shared/read/config/manage';
import type { Mailer } from '../shared/core/ports/mailer';
import type { MailRunDeps } from '../shared/read/email/run';
import type { EmailLinkDeps } from '../shared/read/email/links';
import { azureMailer } from '../adapters/azure-email';
import { outboxMailer } from '../adapters/files/outbox';
import type { ConfigSite } from '../shared/core/store/config';

/**
 * Built once a process, with one object per use case, so a function hands over `root.<use case>` and builds nothing.
 * The first site's store and use cases stand at the top, as in a deployment of one site.
 */
export interface Root extends Omit<SiteRoot, 'scope'> {
  settings: Settings;
  clock: Clock;
  logger: Logger;
  /** Holds the timer locks and the replay counts; null when the storage has no Blob service. */
  blob: BlobCall | null;
  /** ingest-hits and ingest-beacon share one hit sender, so their requests share its messages. */
  receive: ReceiveDeps;
  /** `<HITS_QUEUE>-imports`, so imported hits travel apart from live ones. */
  imports: ImportDeps;
  /** replay-poison. */
  replay: ReplayEveryDeps;
  /** One access a process, so every admin route slows the same guesser. */
  operator: OperatorSettings;
  /** admin-mark. */
  mark: MarkSettings;
  /** Each file is read on its first request. */
  assets: AssetShelf;
  /** admin-page. */
  dashboard: AssetShelf;
  /** Each site, and `*` when several, has its own store and use cases, as the configuration names them. */
  sites: SiteBook;
  /** admin-links and admin-link. */
  links: LinkAdminDeps;
  /** What the timer deletes each day's secret with, and the keeper ingest and imports read them through. */
  daySecrets: DaySecretDeps & { keeper: DaySecretKeeper };
  /** A shared link's reads are slowed as the operator's are. */
  shared: SharedReadDeps;
  /** admin-keys and admin-key. */
  keys: KeyAdminDeps;
  /** The reads an API key opens (stats-query, mcp), its wrong guesses slowed as the operator's are. */
  keyed: KeyReadDeps;
  /** admin-config, and every read and fold run that takes goals, segments or annotations from it. */
  config: ConfigAdminDeps;
  /** The timer `email`: confirmations, reports and alerts. */
  mail: MailRunDeps;
  /** email-confirm and email-unsubscribe, their tokens slowed when wrong as the operator's key is. */
  emailLinks: EmailLinkDeps & { trustedProxyHops: number };
}

export interface RootOverrides {
  clock?: Clock;
  logger?: Logger;
  store?: Store;
  /** Null for storage without one. */
  blob?: BlobCall | null;
  hitQueue?: HitQueue;
  importQueue?: HitQueue;
  poisonQueue?: PoisonQueue;
  importPoisonQueue?: PoisonQueue;
  replayLedger?: ReplayLedger;
  /** The hit sender's windows run on it. */
  scheduler?: Scheduler;
  /** Instead of the one built at install time. */
  networks?: HostingNetworks;
  /** Tests give one a process, as a process has one root. */
  countries?: CountryLookup;
  /** The local stack names its stand-in, so a figure is never said to come from Azure when it does not. */
  cosmosName?: string;
  /** A site other than the first, whose store is `store`. */
  siteStore?: (scope: SiteScope) => Store;
  /** Instead of the client's 5 s: a bench's local Cosmos server on a loaded machine may take longer to answer a page. */
  cosmosRequestTimeoutMs?: number;
  /** Instead of random bytes, so a test's tokens repeat from run to run. */
  newSecret?: (day: string) => string;
  /** Instead of ACS or the outbox folder, such as one that fails. */
  mailer?: Mailer;
}

/** Never a default chain, so the app cannot pick up a developer's sign-in or a stray service principal. */
export function credentialFor(clientId: string | undefined): TokenCredential {
  return clientId ? new ManagedIdentityCredential({ clientId }) : new ManagedIdentityCredential();
}

export function queueLocation(settings: Settings): QueueLocation {
  if (settings.AzureWebJobsStorage !== undefined) return { connectionString: settings.AzureWebJobsStorage };
  return { serviceUri: settings.AzureWebJobsStorage__queueServiceUri!, credential: credentialFor(settings.AzureWebJobsStorage__clientId) };
}

export function blobLocation(settings: Settings): BlobLocation | null {
  if (settings.AzureWebJobsStorage !== undefined) return blobLocationFromConnectionString(settings.AzureWebJobsStorage);
  return { endpoint: settings.AzureWebJobsStorage__blobServiceUri!, credential: credentialFor(settings.AzureWebJobsStorage__clientId) };
}

/** Nothing is replayed without a count. */
const noLedger: ReplayLedger = {
  read: async () => ({ ok: false, error: { reason: 'the storage has no Blob service to keep replay counts in' } }),
  record: async () => ({ ok: false, error: { reason: 'the storage has no Blob service to keep replay counts in' } }),
};

let duckEngine: Promise<DuckEngine> | null = null;

/** The process's one embedded engine for the day files, opened on first use. */
const processEngine = (): Promise<DuckEngine> => (duckEngine ??= DuckEngine.open());

/** One container client a process; memory only when STORE=memory names it, which the settings refuse in Azure. */
export function storeFor(
  settings: Settings,
  cosmosName = 'Azure Cosmos DB',
  scope: SiteScope = ONE_SITE,
  requestTimeoutMs?: number,
): Store {
  if (settings.STORE === 'memory') return memoryStore();
  if (settings.COSMOS_ENDPOINT === undefined) throw new Error('COSMOS_ENDPOINT: is required unless STORE is memory');
  const auth = settings.COSMOS_KEY !== undefined ? { key: settings.COSMOS_KEY } : { credential: credentialFor(settings.COSMOS_CLIENT_ID) };
  const container = cosmosContainer({
    endpoint: settings.COSMOS_ENDPOINT,
    auth,
    database: settings.COSMOS_DATABASE,
    container: settings.COSMOS_CONTAINER,
    ...(requestTimeoutMs === undefined ? {} : { requestTimeoutMs }),
  });
  const blob = blobLocation(settings);
  const dayFiles =
    blob === null
      ? undefined
      : blobDayFiles(blobCall(blob), processEngine, scope, `${settings.COSMOS_DATABASE}.${settings.COSMOS_CONTAINER}`);
  return cosmosStore(container, { settleSeconds: settings.FOLD_SETTLE_SECONDS, name: cosmosName, scope, dayFiles });
}

/** One of each per root. */
function identityRules(settings: Settings, networks: HostingNetworks, countries: CountryLookup): IdentityRules {
  return {
    networks,
    hashKey: settings.HASH_KEY,
    selfNetworks: settings.SELF_NETWORKS,
    selfAgentTag: settings.SELF_AGENT_TAG,
    ignoredPaths: settings.IGNORED_PATHS,
    countries,
    agents: agentVerdicts(),
  };
}

interface SiteParts {
  settings: Settings;
  clock: Clock;
  logger: Logger;
  allowedOrigins: readonly string[];
  ids: PersonIdDerivations;
  zoneOf: (name: string) => Zone;
  config: ConfigSource;
}

/** Read until found, then kept: the day never changes once marked, so the timer marks it with no store call after. */
function allSitesFromOf(all: () => SiteRoot | undefined, clock: Clock) {
  let marked: string | undefined;
  const read = async () => {
    const store = all()?.store;
    const found = marked !== undefined || store === undefined ? null : await store.allSitesFrom.read();
    if (found !== null) marked = found.doc.day;
    return { store, marked };
  };
  // All sites' local today.
  const today = async () => (await all()?.days())?.dayOf(clock.now()) ?? utcDay(clock.now());
  return {
    from: async () => (await read()).marked ?? (await today()),
    mark: async () => {
      const { store, marked: day } = await read();
      if (store !== undefined && day === undefined) await markAllSitesFrom(store, await today());
    },
  };
}

/** What `*` reads of the first site, for the days up to the one it began. */
function earlierOf(
  all: Store,
  first: Store,
  sites: readonly Store[],
  from: () => Promise<string>,
  firstDaysOf: (day: string) => Promise<string[]>,
) {
  const days: EarlierDays = { first, sites: sites.map((site) => site.visitorsSummary), from, firstDaysOf };
  return { store: allSitesReads(all, days, { people: emptyVisitorsSummary(), visits: emptyVisits() }), earlier: { store: first, from } };
}

/** Days kept before the day's secrets, in this store: their tokens made again and their networks and facts gone. */
const oldDaysOf = (store: Store, clock: Clock) =>
  oldDaysMigration({ days: store.oldDays, secrets: store.secrets, foldState: store.foldState, firstDay: () => firstKeptDay(store), clock });

/** The first site's are also the root's own; `*`'s reads join the first site's days before it began. */
function siteRoot(
  scope: SiteScope & { zone: string },
  store: Store,
  parts: SiteParts,
  before?: { first: Store; firstDays: () => Promise<SiteDays>; sites: readonly Store[]; from: () => Promise<string> },
): SiteRoot {
  const { settings, clock, logger } = parts;
  const zone = parts.zoneOf(scope.zone);
  const days = siteZones({
    docs: store.timeZones,
    zone,
    clock,
    keptNothing: async () => (await firstKeptDay(store)) === null,
    zoneOf: parts.zoneOf,
  });
  // `*`'s day and the first site's days that share its instants, when their zones differ.
  const firstDaysOf = (firstDays: () => Promise<SiteDays>) => async (day: string) =>
    sharedDays(await daysOrSet({ zone, days }), day, await firstDays());
  const joined = before && earlierOf(store, before.first, before.sites, before.from, firstDaysOf(before.firstDays));
  const read = joined?.store ?? store;
  const reads = { store: read, clock, logger, zone, days };
  const earlier = joined === undefined ? {} : { earlier: joined.earlier };
  // A goal that names its site counts on it alone; the others on every site and on all of them.
  const goals = settings.GOALS.filter((goal) => goal.site === undefined || goal.site === scope.name);
  // Each store moves to person ids by its own migration, which its keeps and fold follow (docs/design.md, Identity).
  const switched = storeSwitch(store, goals, parts.ids, clock);
  const root: SiteRoot = {
    scope: { name: scope.name, prefix: scope.prefix },
    store,
    days,
    keep: { store, clock, ...keepMemory(), personSwitch: switched.personSwitch, days },
    keepImports: { store, clock, ...keepMemory(), personSwitch: switched.personSwitch, days },
    fold: {
      store,
      clock,
      rules: scanRules(settings.SUBJECT_REFRESH_SECONDS, settings.SUBJECT_SCAN_INTERVAL_SECONDS),
      lateDays: settings.HIT_MAX_AGE_DAYS,
      steps: settings.FUNNEL_STEPS,
      goals,
      budget: TIMER_FOLD_BUDGET,
      // The old days' migration is last: it waits for the days kept before the day's secrets to leave the fold's reach.
      migrations: [switched.migration, oldDaysOf(store, clock)],
      persons: switched.persons,
    },
    count: {
      site: scope.name,
      count: {
        visitorsSummary: read.visitorsSummary,
        visits: read.visits,
        foldState: store.foldState,
        clock,
        source: store.source,
        zone: reads.zone,
        days,
      },
      allowedOrigins: parts.allowedOrigins,
      pulseGoal: settings.PULSE_GOAL === undefined ? null : { name: settings.PULSE_GOAL, summaries: store.goals.summaries },
    },
    activity: { ...reads, funnel: settings.FUNNEL_STEPS, goals, ...earlier },
    export: { ...reads, funnel: settings.FUNNEL_STEPS, goals, ...earlier },
    now: reads,
    retention: { ...reads, funnel: settings.FUNNEL_STEPS, goals },
    subjects: { subjects: store.subjects, source: store.source, clock, logger, zone: reads.zone, days },
    configured: async () => {
      const doc = await configOrSeed(parts.config, logger);
      const goals = goalsOfSite(doc, scope.name);
      const today = reads.zone.day(clock.now());
      const funnels = funnelsOf(doc);
      const back = {
        rollups: store.rollups,
        periods: store.periods,
        pages: store.visitorDayPages,
        firstDay: () => firstKeptDay(store),
        files: { dayFiles: store.dayFiles, rules: { steps: settings.FUNNEL_STEPS, goals, funnels } },
      };
      // The day files first: a day a slice, waiting on no other. Then goals and funnels added in the dashboard are counted
      // back: each is a few slices a run, and waits on no other.
      const files = dayFilesMigration({ ...back, files: store.dayFiles, today, rules: { steps: settings.FUNNEL_STEPS, goals, funnels } });
      const counting = [
        files,
        ...goals.flatMap((goal) => (goal.back === undefined ? [] : [goalBackMigration({ ...goal, back: goal.back }, { ...back, today })])),
        ...funnels.map((funnel) => funnelBackMigration(funnel, { ...back, today })),
      ];
      return {
        activity: { ...root.activity, goals, funnels, segments: doc.segments, annotations: doc.annotations },
        export: { ...root.export, goals, segments: doc.segments },
        fold: { ...root.fold, goals, funnels, migrations: [...counting, ...(root.fold.migrations ?? [])] },
      };
    },
  };
  return root;
}

/** A store that cannot be read answers its reads' unavailability, so they take the settings' goals meanwhile. */
async function configOrSeed(config: ConfigSource, logger: Logger) {
  try {
    return (await config.current()).doc;
  } catch (error) {
    logger.warn('the configuration could not be read; the settings stand in for it', { reason: errorLine(error) });
    return config.seed();
  }
}

/** One day cache a process. */
function personIdDerivations(cost: number, clock: Clock): PersonIdDerivations {
  return { cached: personIds(cost, { ...backgroundScheduler, now: () => clock.now() }), once: (old) => derivePersonId(old, cost) };
}

/** A site as the configuration holds it: a zone only when it gives one, else the deployment's. */
const siteOfConfig = (site: ConfigSite, zone: string): Site => ({
  name: site.name,
  origins: [...site.origins],
  zone: site.time_zone ?? zone,
});

/**
 * The sites as the configuration read at most a minute ago names them. A site keeps its root while its zone and the
 * origins stay; `*` is made again when the sites change. The first site keeps the keys of a deployment of one site.
 */
function siteBook(
  settings: Settings,
  first: Store,
  overrides: RootOverrides,
  parts: Omit<SiteParts, 'allowedOrigins'>,
): SiteBook & { start: Sites } {
  const seeded = declaredSites(settings.SITES, settings.ALLOWED_ORIGINS, settings.TIME_ZONE);
  const stores = new Map<string, Store>();
  const built = new Map<string, SiteRoot>();
  // A site removed keeps its root in this process, so hits queued before it went are still kept and folded.
  const removed = new Map<string, SiteRoot>();
  let latest: { key: string; sites: Sites } | undefined;
  const { from, mark } = allSitesFromOf(() => latest?.sites.roots.get(ALL_SITES), parts.clock);
  // The first site's keys carry no name, so its store is the deployment's first whichever name the configuration gives it.
  const storeOf = (scope: SiteScope) => {
    if (scope.prefix === '') return first;
    const made =
      stores.get(scope.name) ??
      overrides.siteStore?.(scope) ??
      storeFor(settings, overrides.cosmosName, scope, overrides.cosmosRequestTimeoutMs);
    stores.set(scope.name, made);
    return made;
  };
  const make = (declared: readonly Site[]): Sites => {
    const firstName = declared[0]!.name;
    const names = declared.length > 1 ? [...declared.map((site) => site.name), ALL_SITES] : [declared[0]!.name];
    const allowedOrigins = allOrigins(declared);
    const allZone = allSitesZone(settings.SITES, declared);
    const roots = new Map<string, SiteRoot>();
    for (const name of names) {
      const scope = { ...scopeOf(name, firstName), zone: declared.find((site) => site.name === name)?.zone ?? allZone };
      const key = JSON.stringify(name === ALL_SITES ? [name, scope.zone, declared] : [name, scope.prefix, scope.zone, allowedOrigins]);
      const store = storeOf(scope);
      // `*` comes last, so every site's store is built before it.
      const firstDays = () => daysOrSet({ zone: parts.zoneOf(declared[0]!.zone), days: roots.get(firstName)!.days });
      const before = name === ALL_SITES ? { first, firstDays, sites: [...roots.values()].map((root) => root.store), from } : undefined;
      const root = built.get(key) ?? siteRoot(scope, store, { ...parts, allowedOrigins }, before);
      built.set(key, root);
      roots.set(name, root);
    }
    for (const [name, root] of latest?.sites.roots ?? []) if (!roots.has(name) && name !== ALL_SITES) removed.set(name, root);
    for (const name of roots.keys()) removed.delete(name);
    for (const [key, root] of built) if (![...roots.values()].includes(root)) built.delete(key);
    return { declared, roots, removed, allSitesFrom: from, markAllSitesFrom: mark };
  };
  // Until the configuration is read, the settings' sites, as they seed it.
  latest = { key: JSON.stringify(seeded), sites: make(seeded) };
  return {
    start: latest.sites,
    current: async () => {
      const doc = await configOrSeed(parts.config, parts.logger);
      const declared = doc.sites.map((site) => siteOfConfig(site, settings.TIME_ZONE));
      const key = JSON.stringify(declared);
      if (latest?.key !== key) latest = { key, sites: make(declared) };
      return latest.sites;
    },
  };
}

/** A hit's day on its site (the first when it names none), and on all sites together when their zone makes it another. */
function hitDaysOf(book: SiteBook): HitDaysOf {
  return async (at, site) => {
    const sites = await book.current();
    const first = sites.roots.get(sites.declared[0]!.name)!;
    const day = (await (sites.roots.get(site ?? '') ?? sites.removed.get(site ?? '') ?? first).days()).dayOf(at);
    const all = sites.roots.get(ALL_SITES);
    const allDay = all === undefined ? day : (await all.days()).dayOf(at);
    return allDay === day ? { day } : { day, all: allDay };
  };
}

/** Every dependency is built once from validated settings, and any of them can be replaced. */
export function buildRoot(settings: Settings, overrides: RootOverrides = {}): Root {
  const clock = overrides.clock ?? systemClock;
  const logger = overrides.logger ?? consoleLogger();
  const queueAt = (name: string) => queueClient(queueLocation(settings), name);
  const hitQueue = overrides.hitQueue ?? azureHitQueue(queueAt(settings.HITS_QUEUE));
  const sender = hitSender(
    hitQueue,
    { windowMs: settings.INGEST_WINDOW_MS, maxHits: settings.INGEST_MESSAGE_MAX_HITS },
    { scheduler: overrides.scheduler ?? systemScheduler, logger },
  );
  const store = overrides.store ?? storeFor(settings, overrides.cosmosName, ONE_SITE, overrides.cosmosRequestTimeoutMs);
  const location = overrides.blob === undefined ? blobLocation(settings) : null;
  const blob = overrides.blob !== undefined ? overrides.blob : location ? blobCall(location) : null;
  const importQueue = overrides.importQueue ?? azureHitQueue(queueAt(importQueueName(settings.HITS_QUEUE)));
  const rules = identityRules(settings, overrides.networks ?? hostingNetworks(), overrides.countries ?? packagedCountries());
  // Every key check counts its guesses in the first site's store, so every instance and restart sees them.
  const guessing = guesses({ counts: store.guesses, clock, hashKey: settings.HASH_KEY });
  const declared = declaredSites(settings.SITES, settings.ALLOWED_ORIGINS, settings.TIME_ZONE);
  const allowedOrigins = allOrigins(declared);
  const ids = personIdDerivations(settings.PERSON_HASH_COST, clock);
  const config = configSource({ docs: store.config, clock, logger, seed: { sites: declared, goals: settings.GOALS } });
  const book = siteBook(settings, store, overrides, { settings, clock, logger, ids, zoneOf: zoneBook(), config });
  const sites = book.start;
  const live = async () => (await book.current()).declared;
  const secretDeps: DaySecretDeps = {
    secrets: store.secrets,
    clock,
    lateDays: settings.HIT_MAX_AGE_DAYS,
    dayOf: hitDaysOf(book),
    ...(overrides.newSecret === undefined ? {} : { newSecret: overrides.newSecret }),
  };
  const daySecrets = { ...secretDeps, keeper: daySecretKeeper(secretDeps) };
  const operator: OperatorSettings = {
    operatorKey: settings.OPERATOR_KEY,
    hashKey: settings.HASH_KEY,
    access: {
      clock,
      sessionHours: settings.ADMIN_SESSION_HOURS,
      trustedProxyHops: settings.TRUSTED_PROXY_HOPS,
      guesses: guessing,
      sessions: store.sessions,
    },
  };
  // One ingest serves every site, so it sends derived ids only once every store has moved to them.
  const persons = switchedPersonIds(
    [...sites.roots.values()].map((root) => root.store.migrations),
    ids.cached,
    clock,
  );
  const { scope: _scope, store: _store, ...first } = sites.roots.get(declared[0]!.name)!;
  // The dashboard's parts, read for their version once for both shelves that name them.
  const parts = partsVersions(ASSETS);
  return {
    settings,
    clock,
    logger,
    store,
    blob,
    daySecrets,
    receive: {
      rules,
      secrets: daySecrets.keeper,
      persons,
      sender,
      clock,
      logger,
      ingestKey: settings.INGEST_KEY,
      operatorKey: settings.OPERATOR_KEY,
      trustedProxyHops: settings.TRUSTED_PROXY_HOPS,
      guesses: guessing,
      hitMaxAgeDays: settings.HIT_MAX_AGE_DAYS,
      sites: async () => (await book.current()).declared,
      subjects: { mode: settings.IDENTITY_MODE, store: store.subjects },
      subjectsOf: async (site) => {
        const now = await book.current();
        const root = now.roots.get(site) ?? now.removed.get(site);
        return root && { store: root.store.subjects, ...(root.fold.persons && { switched: root.fold.persons }) };
      },
    },
    imports: {
      rules,
      secrets: daySecrets.keeper,
      persons,
      queue: importQueue,
      clock,
      store,
      ingestKey: settings.INGEST_KEY,
      trustedProxyHops: settings.TRUSTED_PROXY_HOPS,
      guesses: guessing,
      allowedOrigins,
      days: async (site) => {
        const now = await book.current();
        return (now.roots.get(site ?? now.declared[0]!.name) ?? now.roots.get(now.declared[0]!.name)!).days();
      },
    },
    ...first,
    replay: {
      // Each queue's poison goes back to that queue.
      queues: [
        {
          name: 'hits',
          poison: overrides.poisonQueue ?? azurePoisonQueue(queueAt(`${settings.HITS_QUEUE}-poison`)),
          queue: hitQueue,
        },
        {
          name: 'imports',
          poison: overrides.importPoisonQueue ?? azurePoisonQueue(queueAt(`${importQueueName(settings.HITS_QUEUE)}-poison`)),
          queue: importQueue,
        },
      ],
      ledger: overrides.replayLedger ?? (blob ? blobReplayLedger(blob) : noLedger),
      replayMax: settings.REPLAY_MAX,
    },
    operator,
    mark: { ...operator, allowedOrigins: async () => allOrigins(await live()) },
    assets: assetShelf(ASSETS, undefined, parts),
    dashboard: assetShelf({ 'admin.html': DASHBOARD }, undefined, parts),
    sites: book,
    links: { links: store.links, sites: live, clock, hashKey: settings.HASH_KEY },
    shared: { links: store.links, hashKey: settings.HASH_KEY, readsOf: (site) => siteReads(book, site), access: operator.access },
    keys: { apiKeys: store.apiKeys, sites: live, clock, hashKey: settings.HASH_KEY },
    keyed: {
      apiKeys: store.apiKeys,
      hashKey: settings.HASH_KEY,
      sites: declared.map((site) => site.name),
      readsOf: (site) => siteReads(book, site),
      access: operator.access,
      usesAnHour: KEY_USES_AN_HOUR,
    },
    config: { docs: store.config, source: config, clock },
    mail: {
      email: store.email,
      mailer: overrides.mailer ?? mailerFor(settings, clock),
      clock,
      logger,
      hashKey: settings.HASH_KEY,
      appUrl: settings.APP_URL,
      config,
      sites: (site) => siteMail(sites, site),
    },
    emailLinks: { email: store.email, guesses: guessing, clock, hashKey: settings.HASH_KEY, trustedProxyHops: settings.TRUSTED_PROXY_HOPS },
  };
}

/** ACS through the app's one user-assigned identity (the one COSMOS_CLIENT_ID names) in Azure; the outbox folder locally. */
function mailerFor(settings: Settings, clock: Clock): Mailer {
  if (settings.EMAIL_ENDPOINT === undefined || settings.EMAIL_SENDER === undefined) return outboxMailer(settings.EMAIL_OUTBOX, clock);
  return azureMailer(settings.EMAIL_ENDPOINT, settings.EMAIL_SENDER, credentialFor(settings.COSMOS_CLIENT_ID));
}

/** A site's reads as its mail takes them, with the configuration's goals. */
function siteMail(sites: Sites, site: string) {
  const root = sites.roots.get(site);
  return root === undefined ? undefined : { activity: async () => (await root.configured()).activity, now: root.now };
}

/** A missing or malformed setting throws one message naming each. */
export function rootFromEnvironment(env: Record<string, string | undefined>, overrides: RootOverrides = {}): Root {
  const read = readSettings(env);
  if (!read.ok) throw new Error(describeProblems(read.problems));
  return buildRoot(read.settings, overrides);
}

let processRoot: Root | undefined;

/** The app's one module-level state, built on the first function registered; a bad setting stops start-up with its name. */
export function hostRoot(): Root {
  processRoot ??= rootFromEnvironment(process.env);
  return processRoot;
}

/** All sites together read the first site's when only one is declared. */
async function siteReads(book: SiteBook, site: string): Promise<SiteReads | undefined> {
  const sites = await book.current();
  const root = sites.roots.get(site) ?? (site === ALL_SITES ? sites.roots.get(sites.declared[0]!.name) : undefined);
  return root === undefined ? undefined : { activity: async () => (await root.configured()).activity };
}
