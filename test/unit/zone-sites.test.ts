import { describe, expect, it } from 'vitest';
import { buildRoot } from '../../host/composition';
import { describeProblems, readSettings } from '../../host/settings';
import type { QueuedHit } from '../../shared/core/message';
import { ingest } from '../../shared/ingest/ingest';
import { keepBySite } from '../../shared/keep/sites';
import { testSecret } from '../support/day-secrets';
import { countries } from '../support/countries';
import { AGENTS } from '../support/http';

// Two sites in two zones and all sites in the first one's, as the composition root wires them: each hit carries its
// site's local day and token, and all sites' day and token when their zone puts it on another day.

const env = {
  HASH_KEY: 'test-hash-key-0123456789abcdef',
  INGEST_KEY: 'test-ingest-key-0123456789',
  OPERATOR_KEY: 'test-operator-key-0123456789',
  AzureWebJobsStorage: 'UseDevelopmentStorage=true',
  STORE: 'memory',
  SITES: 'ny.example=;zone=America/New_York|in.example=;zone=Asia/Kolkata',
  PERSON_HASH_COST: '1',
};

async function ingested(at: string, sites: readonly string[]): Promise<QueuedHit[]> {
  const read = readSettings(env);
  if (!read.ok) throw new Error(describeProblems(read.problems));
  const root = buildRoot(read.settings, { clock: { now: () => new Date(at) }, countries, blob: null, newSecret: testSecret });
  const hits: QueuedHit[] = [];
  const sender = {
    enqueue: async (batch: readonly QueuedHit[]) => (hits.push(...batch), { ok: true as const }),
    waiting: () => ({ requests: 0, hits: 0 }),
  };
  const seen = sites.map((site) => ({
    at: new Date(at),
    address: '203.0.113.10',
    userAgent: AGENTS.chromeWindows,
    path: '/',
    referrer: null,
    served_by: 'site',
    pageLoad: true,
    subject: null,
    operator: false,
    site,
  }));
  expect(await ingest(seen, { ...root.receive, sender })).toMatchObject({ ok: true });
  return hits;
}

describe('sites in several zones', () => {
  it("puts a hit on its site's local day, and on all sites' (the first site's zone) with a token of that day", async () => {
    // 20:00Z is 16:00 on the 23rd in New York and 01:30 on the 24th in Kolkata.
    const [ny, india] = await ingested('2026-10-23T20:00:00.000Z', ['ny.example', 'in.example']);
    expect(ny!.day).toBe('2026-10-23');
    expect(ny!.all).toBeUndefined();
    expect(india!.day).toBe('2026-10-24');
    expect(india!.all?.day).toBe('2026-10-23');
    // One person on one New York day is one visit of all sites, whichever site they were on.
    expect(india!.all?.token).toBe(ny!.token);
    expect(india!.token).not.toBe(ny!.token);
    expect(india!.person).toBe(ny!.person);
  });

  it("keeps all sites' part on all sites' day and token, and each site's on its own", async () => {
    const hits = await ingested('2026-10-23T20:00:00.000Z', ['ny.example', 'in.example']);
    const kept = new Map<string, QueuedHit[]>();
    const sites = { firstSite: 'ny.example', keepOf: (site: string) => site, allSitesFrom: () => Promise.resolve('2026-01-01') };
    const outcome = await keepBySite({ v: 1, id: crypto.randomUUID(), hits }, sites, async (message, site) => {
      kept.set(site, message.hits);
      return { ok: true, hits: message.hits.length, already: false };
    });
    expect(outcome).toMatchObject({ ok: true });
    expect(kept.get('in.example')!.map((hit) => hit.day)).toEqual(['2026-10-24']);
    expect(kept.get('*')!.map((hit) => [hit.day, hit.token, hit.all])).toEqual([
      ['2026-10-23', hits[0]!.token, undefined],
      ['2026-10-23', hits[0]!.token, undefined],
    ]);
  });
});
