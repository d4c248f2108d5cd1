import { dayOf } from './plan';
import type { HitsMessage, QueuedHit } from '../core/message';
import type { KeepOutcome } from './keep';
import { ALL_SITES } from '../core/sites/sites';

/** A hit queued before sites is the first site's. */
function bySite(hits: readonly QueuedHit[], firstSite: string): Map<string, QueuedHit[]> {
  const sites = new Map<string, QueuedHit[]>();
  for (const hit of hits) {
    const site = hit.site ?? firstSite;
    sites.set(site, [...(sites.get(site) ?? []), hit]);
  }
  return sites;
}

/** All sites' day and token, where their zone puts the hit on another day than its site's. */
const allSitesHit = ({ all, ...hit }: QueuedHit): QueuedHit => (all === undefined ? hit : { ...hit, day: all.day, token: all.token });

/**
 * Also keeps them in `*`, so a person who visited two sites is one person, but for the first site's days up to the one
 * all sites began; each store is exactly-once by the message id.
 */
export async function keepBySite<D>(
  message: HitsMessage,
  sites: { firstSite: string; keepOf: (site: string) => D | undefined; allSitesFrom: () => Promise<string> },
  keep: (message: HitsMessage, deps: D) => Promise<KeepOutcome>,
): Promise<KeepOutcome> {
  const parts = [...bySite(message.hits, sites.firstSite)];
  if (sites.keepOf(ALL_SITES) !== undefined) {
    const from = await sites.allSitesFrom();
    // The first site's days up to the one all sites began are read from its own documents.
    const hits = message.hits.map(allSitesHit).filter((hit) => (hit.site ?? sites.firstSite) !== sites.firstSite || dayOf(hit) > from);
    if (hits.length > 0) parts.push([ALL_SITES, hits]);
  }
  const unknown = parts.find(([site]) => sites.keepOf(site) === undefined);
  if (unknown !== undefined) return { ok: false, reason: `hits of ${unknown[0]}, a site SITES does not declare` };
  const outcomes = await Promise.all(parts.map(([site, hits]) => keep({ ...message, hits }, sites.keepOf(site)!)));
  const failed = outcomes.find((outcome) => !outcome.ok);
  if (failed !== undefined) return failed;
  return { ok: true, hits: message.hits.length, already: outcomes.every((outcome) => outcome.ok && outcome.already) };
}
