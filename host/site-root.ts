import type { ActivityDeps } from '../shared/read/activity/report';
import type { CountAnswerDeps } from '../shared/read/counting/answers';
import type { ExportDeps } from '../shared/read/export/export';
import type { FoldDeps } from '../shared/fold/fold';
import type { KeepDeps } from '../shared/keep/keep';
import type { NowDeps } from '../shared/read/now';
import type { RetentionDeps } from '../shared/read/retention';
import type { ImportKeepingStore, Store } from '../shared/core/store';
import type { SubjectReadDeps } from '../shared/read/subjects';
import type { SiteScope } from '../shared/core/sites/keys';
import type { Site } from '../shared/core/sites/sites';
import type { SiteDays } from '../shared/core/sites/zones';

/** Built once by the composition root. */
export interface SiteRoot {
  scope: SiteScope;
  store: Store;
  /** The site's days: its zone, from which day it holds, and the zones of the days kept before. */
  days: () => Promise<SiteDays>;
  keep: KeepDeps;
  keepImports: KeepDeps & { store: ImportKeepingStore };
  fold: FoldDeps;
  count: CountAnswerDeps;
  activity: ActivityDeps;
  export: ExportDeps;
  now: NowDeps;
  retention: RetentionDeps;
  subjects: SubjectReadDeps;
  /** Its reads and fold with the configuration's goals, segments and annotations, as read at most a minute ago. */
  configured(): Promise<Configured>;
}

export type Configured = Pick<SiteRoot, 'activity' | 'export' | 'fold'>;

/** Declared order, first site first; `*` holds all sites together when there are several. */
export interface Sites {
  declared: readonly Site[];
  roots: ReadonlyMap<string, SiteRoot>;
  /** Sites this process saw removed: their ingest stops, and what was queued before is still kept and folded. */
  removed: ReadonlyMap<string, SiteRoot>;
  /** The day all sites began: the first site's days up to it are its own documents'. */
  allSitesFrom: () => Promise<string>;
  /** The timer's: marks today as the day all sites began, unless one is marked or only one site is declared. */
  markAllSitesFrom: () => Promise<void>;
}

/** The sites as the configuration names them, which every instance reads again within a minute of a change. */
export interface SiteBook {
  current(): Promise<Sites>;
}

/** A hit queued before sites existed belongs to the first site. */
export const siteDeps = <K extends keyof SiteRoot>(sites: Sites, use: K) => ({
  firstSite: sites.declared[0]!.name,
  allSitesFrom: sites.allSitesFrom,
  keepOf: (site: string): SiteRoot[K] | undefined => (sites.roots.get(site) ?? sites.removed.get(site))?.[use],
});
