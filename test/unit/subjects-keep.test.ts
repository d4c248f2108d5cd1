import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../adapters/memory/store';
import type { QueuedHit } from '../../shared/core/message';
import { fixedClock } from '../../shared/core/ports/clock';
import type { Store } from '../../shared/core/store';
import { foldOnce, keepHits } from '../support/counting';
import { scanRules } from '../../shared/core/subjects/scan-rule';
import { claimedVisitor } from '../../shared/core/subjects/visitor';
import { personHash, queued } from '../support/hits';
import { plainFigures } from '../support/subjects';

const clock = fixedClock('2026-10-23T20:00:00Z');
const rules = scanRules(10, 60);
const T0 = Date.parse('2026-10-23T10:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms).toISOString();

function hit(person: string | null, subject: string, ms: number, more: Partial<QueuedHit> = {}): QueuedHit {
  return queued(person, at(ms), { path: '/scan', subject, ...more });
}

/** Keeps a message's hits and folds them, as keep-hits and the next timer run would. */
const subjectKeeper =
  (store: Store, _clock: typeof clock, scanRules: typeof rules) =>
  async ({ id, hits }: { id: string; hits: QueuedHit[] }) => {
    await keepHits(store, clock, hits, id);
    await foldOnce(store, clock, scanRules);
    return { ok: true };
  };
const message = (hits: QueuedHit[]) => ({ id: randomUUID(), hits });

describe('subject scans kept and folded', () => {
  it('totals, unique and repeat per subject equal the plainly computed figures, one message or many', async () => {
    const scan = fc.record({
      person: fc.constantFrom('ann', 'bob', 'cat'),
      subject: fc.constantFrom('tree-1', 'tree-2'),
      ms: fc.integer({ min: 0, max: 600 }).map((n) => n * 1_000),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(scan, { minLength: 1, maxLength: 30 }), fc.integer({ min: 1, max: 5 }), async (scans, per) => {
        const store = memoryStore();
        const keep = subjectKeeper(store, clock, rules);
        // Messages arrive in time order (the queue's usual order); within a message the order does not matter.
        const ordered = [...scans].sort((a, b) => a.ms - b.ms);
        for (let i = 0; i < ordered.length; i += per) {
          const chunk = ordered.slice(i, i + per).reverse();
          expect(await keep(message(chunk.map((s) => hit(s.person, s.subject, s.ms))))).toEqual({ ok: true });
        }
        for (const [subject, figures] of plainFigures(scans)) {
          const summary = (await store.subjects.summaries.read(subject))!.doc;
          expect({ scans: summary.scans, unique: summary.unique, repeat: summary.repeat }).toEqual(figures);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('the same message kept twice counts once', async () => {
    const store = memoryStore();
    const keep = subjectKeeper(store, clock, rules);
    const once = message([hit('ann', 'tree-1', 0), hit('ann', 'tree-1', 120_000), hit('bob', 'tree-1', 5_000)]);
    await keep(once);
    const first = (await store.subjects.summaries.read('tree-1'))!.doc;
    await keep(once);
    const second = (await store.subjects.summaries.read('tree-1'))!.doc;
    expect(second).toEqual(first);
    expect(first).toMatchObject({ scans: 3, unique: 2, repeat: 1 });
  });

  it('a visitor scanning two subjects is new on each', async () => {
    const store = memoryStore();
    await subjectKeeper(store, clock, rules)(message([hit('ann', 'tree-1', 0), hit('ann', 'tree-2', 1_000)]));
    for (const subject of ['tree-1', 'tree-2'])
      expect((await store.subjects.summaries.read(subject))!.doc).toMatchObject({
        scans: 1,
        unique: 1,
        by_day: { '2026-10-23': { scans: 1, new: 1 } },
      });
  });

  it('keeps scanners and the site itself apart from people', async () => {
    const store = memoryStore();
    await subjectKeeper(
      store,
      clock,
      rules,
    )(
      message([
        hit('ann', 'tree-1', 0),
        hit('crawler', 'tree-1', 1_000, { bot: true }),
        hit('crawler', 'tree-1', 2_000, { bot: true }),
        hit(null, 'tree-1', 3_000),
      ]),
    );
    expect((await store.subjects.summaries.read('tree-1'))!.doc).toMatchObject({ scans: 1, unique: 1, repeat: 0, scanners: 2, self: 1 });
    expect(await store.subjects.visitors.read('tree-1', personHash('crawler'))).toBeNull();
  });

  it('a visitor the beacon already claimed is counted new once, on their first counted scan', async () => {
    const store = memoryStore();
    expect(await store.subjects.visitors.create(claimedVisitor('tree-1', personHash('ann'), at(0)))).toBe('created');
    expect(await store.subjects.visitors.create(claimedVisitor('tree-1', personHash('ann'), at(1)))).toBe('exists');
    await subjectKeeper(store, clock, rules)(message([hit('ann', 'tree-1', 0), hit('ann', 'tree-1', 1)]));
    expect((await store.subjects.summaries.read('tree-1'))!.doc).toMatchObject({
      scans: 1,
      unique: 1,
      first_scan: at(0),
      last_scan: at(0),
    });
  });

  it('leaves messages without a subject alone: no subject document read or written', async () => {
    const store = memoryStore();
    expect(await subjectKeeper(store, clock, rules)(message([{ ...hit('ann', 'x', 0), subject: null }]))).toEqual({ ok: true });
    expect(store.documents.query<{ pk: string }>((doc) => doc.pk.startsWith('subject:'))).toEqual([]);
  });

  it('judges the scans of many messages folded in one run in the order of their instants', async () => {
    const store = memoryStore();
    await keepHits(store, clock, [hit('ann', 'tree-1', 70_000)]);
    await keepHits(store, clock, [hit('ann', 'tree-1', 0)]);
    await keepHits(store, clock, [hit('ann', 'tree-1', 5_000)]);
    await foldOnce(store, clock, rules);
    expect((await store.subjects.summaries.read('tree-1'))!.doc).toMatchObject({
      scans: 2,
      unique: 1,
      first_scan: at(0),
      last_scan: at(70_000),
    });
  });
});
