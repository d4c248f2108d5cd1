import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../shared/core/days';
import { fixedClock } from '../../shared/core/ports/clock';
import { memoryLogger } from '../../shared/core/ports/logger';
import type { StoreStats, VisitorsSummary } from '../../shared/core/store';
import { migrationStatus } from '../../shared/core/store/migrations';
import { PERSON_IDS_MIGRATION } from '../../shared/core/store/person-moves';
import { VISITORS_SUMMARY_ID } from '../../shared/core/store/summary';
import { VISITORS_PK } from '../../shared/core/store/visitors';
import { containerOf } from '../support/cosmos';
import { createAll, personRecord } from '../support/counting-cosmos';
import { startTestHost } from '../support/host';

const TODAY = '2026-10-23';
const NOW = `${TODAY}T12:00:00.000Z`;
const AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
const spent = (before: StoreStats, after: StoreStats) => ({
  reads: after.reads - before.reads,
  queries: after.queries - before.queries,
  writes: after.writes - before.writes,
});

const summaryOf = (people: number): VisitorsSummary => ({
  id: VISITORS_SUMMARY_ID,
  pk: VISITORS_PK,
  kind: 'visitors-summary',
  people_all_time: people,
  scanners_left_out: 0,
  counted_from: addDays(TODAY, -9),
  people_new_by_day: Object.fromEntries(Array.from({ length: 10 }, (_, i) => [addDays(TODAY, -i), people / 10])),
  scanners_by_day: {},
});

/** A host over a container holding `people` visitor records and their summary, with its clock. */
async function hostWithPeople(people: number) {
  const clock = fixedClock(NOW);
  const t = await startTestHost({ overrides: { clock, logger: memoryLogger() } });
  const container = await containerOf(t.env);
  await createAll(container, [
    summaryOf(people),
    // Kept under person ids, as after the switch: its one pass over every record is not what a run costs.
    ...Array.from({ length: people }, (_, i) => ({ ...personRecord(`v${i}`, addDays(TODAY, -(i % 10))), derived: true as const })),
  ]);
  return { t, clock };
}

describe('what the count costs, in store operations on the local Cosmos server', () => {
  // One host per size for both tests, seeded once: the reads of the first change nothing the second starts from.
  const SIZES = [100, 10_000] as const;
  let hosts: Awaited<ReturnType<typeof hostWithPeople>>[] = [];
  beforeAll(async () => {
    hosts = [];
    for (const people of SIZES) hosts.push(await hostWithPeople(people));
  }, 120_000);
  afterAll(async () => {
    for (const { t } of hosts) await t.stop();
  });

  it('costs the same three point reads on either endpoint at 100 and at 10,000 visitors, and no query', async () => {
    const costs: Record<string, ReturnType<typeof spent>>[] = [];
    for (const [i, people] of SIZES.entries()) {
      const { t } = hosts[i]!;
      const cost: Record<string, ReturnType<typeof spent>> = {};
      // The site's zones are read once a process, by its first read: the cost of every read after is what is measured.
      await fetch(`${t.host.url}/api/pulse`);
      for (const [name, path, headers] of [
        ['pulse', '/api/pulse', {}],
        ['admin', '/api/admin/visitors/people', { 'x-operator-key': t.env.OPERATOR_KEY! }],
      ] as const) {
        const before = t.root.store.stats();
        const response = await fetch(`${t.host.url}${path}`, { headers });
        expect(((await response.json()) as { people_all_time: number }).people_all_time).toBe(people);
        cost[name] = spent(before, t.root.store.stats());
      }
      costs.push(cost);
    }
    // Three point reads: the two summaries, and the fold state that says whether the count is behind.
    expect(costs[0]).toEqual({ pulse: { reads: 3, queries: 0, writes: 0 }, admin: { reads: 3, queries: 0, writes: 0 } });
    expect(costs[1]).toEqual(costs[0]);
  }, 120_000);

  it('folds what changed since its last run, not all history: the same store calls at 100 and at 10,000 visitors kept', async () => {
    const costs = [];
    for (const [i, people] of SIZES.entries()) {
      const { t, clock } = hosts[i]!;
      // The kept records move to person ids once, in slices, and the fold after counts the moved records again: once.
      do await t.fold();
      while (!(await migrationStatus(t.root.store.migrations, PERSON_IDS_MIGRATION)).done);
      clock.advance(60_000);
      await t.fold();
      // One new person and one returning, then a minute later one fold.
      const hits = [
        { at: `${TODAY}T11:00:00Z`, address: '198.51.100.7', user_agent: AGENT, path: '/' },
        { at: `${TODAY}T11:01:00Z`, address: '198.51.100.8', user_agent: AGENT, path: '/about' },
      ];
      const response = await fetch(`${t.host.url}/api/hits`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-ingest-key': t.env.INGEST_KEY! },
        body: JSON.stringify({ hits }),
      });
      expect(response.status).toBe(202);
      await t.host.drain();
      clock.advance(60_000);
      const before = t.root.store.stats();
      await t.fold();
      costs.push(spent(before, t.root.store.stats()));
      const count = await (await fetch(`${t.host.url}/api/pulse`)).json();
      expect(count).toMatchObject({ people_all_time: people + 2, visits_all_time: 2 });
    }
    expect(costs[1]).toEqual(costs[0]);
    console.log(`one fold after 2 hits, at 100 and at 10,000 visitors kept: ${JSON.stringify(costs[0])}`);
  }, 180_000);
});
