import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../shared/counting/days';
import { recountDeps } from '../../shared/counting/deps';
import { FULL_EVERY_MS, recount, RECONCILE_EVERY_MS } from '../../shared/counting/recount';
import { fixedClock } from '../../shared/ports/clock';
import { memoryLogger } from '../../shared/ports/logger';
import type { StoreStats, VisitorsSummary } from '../../shared/store';
import { VISITORS_SUMMARY_ID } from '../../shared/store/summary';
import { VISITORS_PK } from '../../shared/store/visitors';
import { visitorDay } from '../support/counting';
import { containerOf } from '../support/cosmos';
import { createAll, personRecord } from '../support/counting-cosmos';
import { startTestHost, type TestHost } from '../support/host';

const TODAY = '2026-10-23';
const NOW = `${TODAY}T12:00:00.000Z`;
const spent = (before: StoreStats, after: StoreStats) => ({ reads: after.reads - before.reads, queries: after.queries - before.queries, writes: after.writes - before.writes });

const summaryOf = (people: number): VisitorsSummary => ({
  id: VISITORS_SUMMARY_ID,
  pk: VISITORS_PK,
  kind: 'visitors-summary',
  people_all_time: people,
  scanners_left_out: 0,
  counted_from: addDays(TODAY, -9),
  people_new_by_day: Object.fromEntries(Array.from({ length: 10 }, (_, i) => [addDays(TODAY, -i), people / 10])),
  applied: {},
});

/** A host over a container holding `people` visitor records and their summary, with its clock. */
async function hostWithPeople(people: number) {
  const clock = fixedClock(NOW);
  const t = await startTestHost({ overrides: { clock, logger: memoryLogger() }, queues: false });
  const container = await containerOf(t.env);
  await createAll(container, [summaryOf(people), ...Array.from({ length: people }, (_, i) => personRecord(`v${i}`, addDays(TODAY, -(i % 10))))]);
  return { t, clock };
}

describe('what the count costs, in store operations on the local Cosmos server', () => {
  const hosts: TestHost[] = [];
  afterAll(async () => {
    for (const t of hosts) await t.stop();
  });

  it('costs the same point reads on either endpoint at 100 and at 10,000 visitors, and no query', async () => {
    const costs: Record<string, ReturnType<typeof spent>>[] = [];
    for (const people of [100, 10_000]) {
      const { t } = await hostWithPeople(people);
      hosts.push(t);
      const cost: Record<string, ReturnType<typeof spent>> = {};
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
    expect(costs[0]).toEqual({ pulse: { reads: 2, queries: 0, writes: 0 }, admin: { reads: 2, queries: 0, writes: 0 } });
    expect(costs[1]).toEqual(costs[0]);
  }, 120_000);

  it('heals a visitors summary that lost an increment at the hourly reconciliation', async () => {
    const { t, clock } = await hostWithPeople(100);
    hosts.push(t);
    const deps = recountDeps(t.root);
    await recount(deps);
    const kept = (await t.root.store.summary.read())!;
    expect(kept.doc.people_all_time).toBe(100);
    await t.root.store.summary.replace({ ...kept.doc, people_all_time: 99, people_new_by_day: { ...kept.doc.people_new_by_day, [TODAY]: 9 } }, kept.etag);

    clock.advance(RECONCILE_EVERY_MS - 60_000);
    expect(await recount(deps)).toMatchObject({ ok: true, reconciled: 'not-due' });
    clock.advance(60_000);
    expect(await recount(deps)).toMatchObject({ ok: true, reconciled: 'healed' });
    const healed = (await t.root.store.summary.read())!.doc;
    expect(healed.people_all_time).toBe(100);
    expect(healed.people_new_by_day[TODAY]).toBe(10);
  }, 60_000);
});

describe('a later recount reads what changed since the last one, not all history', () => {
  let hosts: { t: TestHost; clock: ReturnType<typeof fixedClock> }[] = [];
  beforeAll(async () => {
    hosts = [];
    for (const days of [10, 100]) {
      const clock = fixedClock(NOW);
      const t = await startTestHost({ overrides: { clock, logger: memoryLogger() }, queues: false });
      const container = await containerOf(t.env);
      await createAll(container, Array.from({ length: days }, (_, back) => [visitorDay(addDays(TODAY, -back), `a${back}`), visitorDay(addDays(TODAY, -back), `b${back}`)]).flat());
      hosts.push({ t, clock });
    }
  }, 60_000);
  afterAll(async () => {
    for (const { t } of hosts) await t.stop();
  });

  it('reads every kept day once, then today each minute and a week each hour, the same at 10 and at 100 days', async () => {
    const runs = [];
    for (const { t, clock } of hosts) {
      const deps = { ...recountDeps(t.root), reconcile: undefined };
      const rows = [];
      for (const step of [0, 60_000, FULL_EVERY_MS]) {
        clock.advance(step);
        const before = t.root.store.stats();
        const outcome = await recount(deps);
        expect(outcome.ok).toBe(true);
        rows.push({ rows: outcome.ok ? outcome.rows : -1, ...spent(before, t.root.store.stats()) });
      }
      runs.push(rows);
    }
    const [ten, hundred] = runs as [typeof runs[0], typeof runs[0]];
    expect(ten[0]!.rows).toBe(20);
    expect(hundred[0]!.rows).toBe(200);
    // One point read, two queries (what changed since the last count, then the rows) and one write whatever the
    // history; the rows are today's (2) and, hourly, the week a late hit may land in (16).
    expect(ten.slice(1)).toEqual([
      { rows: 2, reads: 1, queries: 2, writes: 1 },
      { rows: 16, reads: 1, queries: 2, writes: 1 },
    ]);
    expect(hundred.slice(1)).toEqual(ten.slice(1));
  });
});
