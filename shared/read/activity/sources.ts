import type { RollupCounts } from '../../core/store/rollups';
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

/** Scanners' and the site's own page loads are left out, or the site's sweeps would read as typed visits. */
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
