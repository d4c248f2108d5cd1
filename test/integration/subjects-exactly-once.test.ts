import { describe, expect, it } from 'vitest';
import { keeper } from '../../shared/keeping/keep';
import { fixedClock } from '../../shared/ports/clock';
import type { Store } from '../../shared/store';
import { subjectKeeper } from '../../shared/subjects/keep';
import { scanRules } from '../../shared/subjects/scan-rule';
import { claimedVisitor } from '../../shared/subjects/visitor';
import { personHash, queued } from '../support/hits';
import { everything, failingAfter, freshCosmos, messageOf } from './keep-helpers';

const clock = () => fixedClock('2026-10-23T20:00:00Z');
const rules = scanRules(10, 60);

/** keep-hits' order: the subjects, then the rest of keeping, which writes the receipt last. */
async function keepHits(store: Store, message: ReturnType<typeof messageOf>) {
  const subjects = await subjectKeeper(store, clock(), rules)(message);
  if (!subjects.ok) return subjects;
  return keeper(store, clock())(message);
}

const before = messageOf([queued('ann', '2026-10-23T09:00:00.000Z', { subject: 'tree-1' })]);
// Ann again on tree-1 (a repeat, a reload), Ann new on tree-2, Bob claimed by the beacon, a crawler and the site itself.
const under = messageOf([
  queued('ann', '2026-10-23T10:00:00.000Z', { subject: 'tree-1' }),
  queued('ann', '2026-10-23T10:00:04.000Z', { subject: 'tree-1' }),
  queued('ann', '2026-10-23T10:00:30.000Z', { subject: 'tree-2' }),
  queued('bob', '2026-10-23T10:01:00.000Z', { subject: 'tree-1' }),
  queued('bot', '2026-10-23T10:02:00.000Z', { subject: 'tree-1', bot: true }),
  queued(null, '2026-10-23T10:03:00.000Z', { subject: 'tree-2' }),
]);

async function prepared() {
  const run = await freshCosmos();
  expect((await keepHits(run.store, before)).ok).toBe(true);
  expect(await run.store.subjects.visitors.create(claimedVisitor('tree-1', personHash('bob'), '2026-10-23T10:01:00.000Z'))).toBe('created');
  return run;
}

describe('subject scans have exactly-once effect on the local Cosmos server', () => {
  it('failing right after each write in turn, then retried, leaves what a clean run leaves', async () => {
    const clean = await prepared();
    const counting = failingAfter(clean.store, Number.POSITIVE_INFINITY);
    expect((await keepHits(counting, under)).ok).toBe(true);
    const writes = counting.writes();
    const expected = await everything(clean.documents);
    const tree1 = expected.find((doc) => doc.id === 'subject-summary:tree-1');
    expect(tree1).toMatchObject({ scans: 3, unique: 2, repeat: 1, scanners: 1, self: 0 });
    expect(expected.find((doc) => doc.id === 'subject-summary:tree-2')).toMatchObject({ scans: 1, unique: 1, self: 1 });
    expect(writes).toBeGreaterThanOrEqual(6);

    for (let failAfter = 1; failAfter <= writes; failAfter += 1) {
      const run = await prepared();
      const failed = await keepHits(failingAfter(run.store, failAfter), under);
      expect(failed.ok, `failing after write ${failAfter}`).toBe(false);
      expect((await keepHits(run.store, under)).ok).toBe(true);
      expect(await everything(run.documents), `failing after write ${failAfter}`).toEqual(expected);
    }
  });

  it('a message delivered again after its receipt changes nothing', async () => {
    const run = await prepared();
    await keepHits(run.store, under);
    const once = await everything(run.documents);
    await keepHits(run.store, under);
    expect(await everything(run.documents)).toEqual(once);
  });

  it('four invocations at once on the same subjects lose no count', async () => {
    const run = await freshCosmos();
    const messages = [0, 1, 2, 3].map((n) =>
      messageOf(['p', 'q', 'r'].flatMap((person) => ['tree-1', 'tree-2'].map((subject) => queued(`${person}${n}`, `2026-10-23T10:0${n}:00.000Z`, { subject })))),
    );
    const outcomes = await Promise.all(messages.map((message) => keepHits(run.store, message)));
    expect(outcomes.every((outcome) => outcome.ok)).toBe(true);
    for (const subject of ['tree-1', 'tree-2']) expect((await run.store.subjects.summaries.read(subject))!.doc).toMatchObject({ scans: 12, unique: 12, repeat: 0 });
  });
});
