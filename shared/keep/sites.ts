import type { HitsMessage, QueuedHit } from '../core/message';
import type { KeepOutcome } from './keep';
import { ALL_SITES } from '../core/sites/sites';

/** The hits of a message by the site that served them; a hit queued before sites is the first site's. */
function bySite(hits: readonly QueuedHit[], firstSite: string): Map<string, QueuedHit[]> {
  const sites = new Map<string, QueuedHit[]>();
  for (const hit of hits) {
    const site = hit.site ?? firstSite;
    sites.set(site, [...(sites.get(site) ?? []), hit]);
  }
  return sites;
}

/**
 * Keeps a message's hits in each site's store, and all of them in all sites' together (`*`, when several are
 * declared), so a person who visited two sites is one person there. Each store keeps the message under its id, so each
 * is exactly once on its own, whichever of them a retry finds already kept.
 */
export async function keepBySite<D>(
  message: HitsMessage,
  sites: { firstSite: string; keepOf: (site: string) => D | undefined },
  keep: (message: HitsMessage, deps: D) => Promise<KeepOutcome>,
): Promise<KeepOutcome> {
  const parts = [...bySite(message.hits, sites.firstSite)];
  const all = sites.keepOf(ALL_SITES);
  if (all !== undefined) parts.push([ALL_SITES, message.hits]);
  const unknown = parts.find(([site]) => sites.keepOf(site) === undefined);
  if (unknown !== undefined) return { ok: false, reason: `hits of ${unknown[0]}, a site SITES does not declare` };
  const outcomes = await Promise.all(parts.map(([site, hits]) => keep({ ...message, hits }, sites.keepOf(site)!)));
  const failed = outcomes.find((outcome) => !outcome.ok);
  if (failed !== undefined) return failed;
  return { ok: true, hits: message.hits.length, already: outcomes.every((outcome) => outcome.ok && outcome.already) };
}
