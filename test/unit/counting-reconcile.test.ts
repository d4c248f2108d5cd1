import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../adapters/memory/store';
import { IN_FLIGHT_SECONDS, reconcileVisitors, type ReconcileDeps } from '../../shared/counting/reconcile';
import { keeper } from '../../shared/keeping/keep';
import { fixedClock } from '../../shared/ports/clock';
import type { Store, VisitorsSummary } from '../../shared/store';
import { keepHits, queuedHit } from '../support/counting';

const NOW = '2026-10-23T12:00:00.000Z';
const deps = (store: Store, clock: ReturnType<typeof fixedClock>): ReconcileDeps => ({ summary: store.summary, census: store.census, receipts: store.receipts, clock });
const figures = (summary: VisitorsSummary | undefined) =>
  summary && { people: summary.people_all_time, scanners: summary.scanners_left_out, from: summary.counted_from, byDay: summary.people_new_by_day };

/** A store whose summary refuses to be written while `broken` is set: keep-hits then fails after writing the records. */
function flakyStore() {
  const store = memoryStore();
  let broken = false;
  const refuse = () => Promise.reject(new Error('summary write refused'));
  const summary = { read: () => store.summary.read(), create: (doc: VisitorsSummary) => (broken ? refuse() : store.summary.create(doc)), replace: (doc: VisitorsSummary, etag: string) => (broken ? refuse() : store.summary.replace(doc, etag)) };
  return { store: { ...store, summary } as Store & { documents: typeof store.documents }, break: (on: boolean) => (broken = on) };
}

describe('reconciling the visitors summary with the visitor records', () => {
  it('agrees with a summary keep-hits kept, and heals one that lost an increment', async () => {
    const store = memoryStore();
    const clock = fixedClock(NOW);
    await keepHits(store, clock, [queuedHit('2026-10-01T10:00:00.000Z', { person: 'a' }), queuedHit('2026-10-23T10:00:00.000Z', { person: 'b' }), queuedHit('2026-10-23T11:00:00.000Z', { person: 's', bot: true })]);
    const kept = (await store.summary.read())!;
    const truth = figures(kept.doc);
    expect(await reconcileVisitors(deps(store, clock))).toBe('agreed');

    const lost = { ...kept.doc, people_all_time: 1, scanners_left_out: 0, counted_from: '2026-10-23', people_new_by_day: { '2026-10-01': 1 } };
    expect(await store.summary.replace(lost, kept.etag)).toBe('replaced');
    expect(await reconcileVisitors(deps(store, clock))).toBe('healed');
    expect(figures((await store.summary.read())?.doc)).toEqual(truth);
    expect(truth).toEqual({ people: 2, scanners: 1, from: '2026-10-01', byDay: { '2026-10-01': 1, '2026-10-23': 1 } });
  });

  it('leaves out a change still on its way, so the retried message counts it once', async () => {
    const { store, break: breakSummary } = flakyStore();
    const clock = fixedClock(NOW);
    await keepHits(store, clock, [queuedHit('2026-10-23T09:00:00.000Z', { person: 'a' })]);
    breakSummary(true);
    const message = { v: 1 as const, id: '00000000-0000-4000-8000-000000000001', hits: [queuedHit('2026-10-23T10:00:00.000Z', { person: 'late' })] };
    expect((await keeper(store, clock)(message)).ok).toBe(false);
    breakSummary(false);

    expect(await reconcileVisitors(deps(store, clock))).toBe('agreed');
    expect((await store.summary.read())?.doc.people_all_time).toBe(1);
    expect((await keeper(store, clock)(message)).ok).toBe(true);
    expect((await store.summary.read())?.doc.people_all_time).toBe(2);
    expect(await reconcileVisitors(deps(store, clock))).toBe('agreed');
  });

  it('counts a change whose message never came back, and marks it applied so a late retry cannot count it twice', async () => {
    const { store, break: breakSummary } = flakyStore();
    const clock = fixedClock(NOW);
    breakSummary(true);
    const message = { v: 1 as const, id: '00000000-0000-4000-8000-000000000002', hits: [queuedHit('2026-10-23T10:00:00.000Z', { person: 'lost' })] };
    expect((await keeper(store, clock)(message)).ok).toBe(false);
    breakSummary(false);
    clock.advance((IN_FLIGHT_SECONDS + 60) * 1000);

    expect(await reconcileVisitors(deps(store, clock))).toBe('healed');
    const healed = (await store.summary.read())!.doc;
    expect(figures(healed)).toMatchObject({ people: 1, from: '2026-10-23', byDay: { '2026-10-23': 1 } });
    expect(healed.applied[message.id]).toBeDefined();
    expect((await keeper(store, clock)(message)).ok).toBe(true);
    expect((await store.summary.read())?.doc.people_all_time).toBe(1);
  });

  it('writes nothing when the summary changed after it was read', async () => {
    const store = memoryStore();
    const clock = fixedClock(NOW);
    await keepHits(store, clock, [queuedHit('2026-10-23T10:00:00.000Z', { person: 'a' })]);
    const kept = (await store.summary.read())!;
    await store.summary.replace({ ...kept.doc, people_all_time: 0 }, kept.etag);
    const racing: ReconcileDeps = {
      ...deps(store, clock),
      census: {
        ...store.census,
        count: async (since) => {
          const now = (await store.summary.read())!;
          await store.summary.replace({ ...now.doc }, now.etag); // keep-hits writes the summary meanwhile
          return store.census.count(since);
        },
      },
    };
    expect(await reconcileVisitors(racing)).toBe('busy');
    expect((await store.summary.read())?.doc.people_all_time).toBe(0);
  });
});
