import { bareHost, referrerGroup } from './referrer-groups';
import { sumCounts, type TokenDay } from './token-days';

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
export function sourcesOf(visitorDays: readonly TokenDay[]): SourcesOfPageLoads {
  const sources: SourcesOfPageLoads = { linkedin: 0, github: 0, search: 0, other: 0, typed: 0, other_hosts: [] };
  const otherHosts: Record<string, number> = {};
  for (const visitorDay of visitorDays) {
    if (visitorDay.kind !== 'people') continue;
    const hosts = sumCounts(visitorDay.docs.map((doc) => doc.sources));
    let linked = 0;
    for (const [host, pageLoads] of Object.entries(hosts)) {
      const group = referrerGroup(host);
      sources[group] += pageLoads;
      linked += pageLoads;
      if (group === 'other') otherHosts[bareHost(host)] = (otherHosts[bareHost(host)] ?? 0) + pageLoads;
    }
    sources.typed += visitorDay.docs.reduce((sum, doc) => sum + doc.page_loads, 0) - linked;
  }
  sources.other_hosts = Object.entries(otherHosts)
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
    .map(([host, pageLoads]) => ({ host, page_loads: pageLoads }));
  return sources;
}
