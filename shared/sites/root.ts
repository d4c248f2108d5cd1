import type { ActivityDeps } from '../read/activity/card';
import type { CountAnswerDeps } from '../read/counting/answers';
import type { ExportDeps } from '../read/export/export';
import type { FoldDeps } from '../fold/fold';
import type { KeepDeps } from '../keep/keep';
import type { NowDeps } from '../read/now';
import type { RetentionDeps } from '../read/retention';
import type { ImportKeepingStore, Store } from '../core/store';
import type { SubjectReadDeps } from '../read/subjects';
import type { SiteScope } from '../core/sites/keys';
import type { Site } from '../core/sites/sites';

/** One site's store and every use case that reads or writes it, built once by the composition root. */
export interface SiteRoot {
  scope: SiteScope;
  store: Store;
  keep: KeepDeps;
  keepImports: KeepDeps & { store: ImportKeepingStore };
  fold: FoldDeps;
  count: CountAnswerDeps;
  activity: ActivityDeps;
  export: ExportDeps;
  now: NowDeps;
  retention: RetentionDeps;
  subjects: SubjectReadDeps;
}

/** The sites declared, the first first, and each one's root (and all sites together's, `*`, when several). */
export interface Sites {
  declared: readonly Site[];
  roots: ReadonlyMap<string, SiteRoot>;
}

/** Each site's deps of one use case, and the first site's name (a hit queued before sites is its). */
export const siteDeps = <K extends keyof SiteRoot>(sites: Sites, use: K) => ({
  firstSite: sites.declared[0]!.name,
  keepOf: (site: string): SiteRoot[K] | undefined => sites.roots.get(site)?.[use],
});
