import type { RollupCounts } from '../../core/rollup/day-rollup';
import { bareHost, referrerGroup } from '../../core/identity/referrer-groups';

/** Page loads by where they came from; `other_hosts` names the hosts counted under `other`, most first. */
export interface SourcesOfPageLoads {
  linkedin: number;
  github: number;
  search: number;
  other: number;
  typed: number;
  other_hosts: Array<{ host: string; page_loads: number }>;
}

/**
 * People's page loads grouped by the referrer table. A visitor-day keeps a page-load count per source host, and its
 * page loads past their sum came with no referrer kept: those are typed. Scanners and the site's own reads are not
 * readers, so their page loads are left out (the site's sweeps would otherwise read as typed visits).
 */
export function sourcesOf(counts: Pick<RollupCounts, 'sources' | 'referrer_loads'>): SourcesOfPageLoads {
  const otherHosts: Record<string, number> = {};
  for (const [host, pageLoads] of Object.entries(counts.referrer_loads)) {
    if (referrerGroup(host) === 'other') otherHosts[bareHost(host)] = (otherHosts[bareHost(host)] ?? 0) + pageLoads;
  }
  return {
    ...counts.sources,
    other_hosts: Object.entries(otherHosts)
      .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
      .map(([host, pageLoads]) => ({ host, page_loads: pageLoads })),
  };
}
