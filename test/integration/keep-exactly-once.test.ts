import { describe, expect, it } from 'vitest';
import { fold } from '../../shared/fold/fold';
import { TIMER_FOLD_BUDGET } from '../../shared/fold/budget';
import { keeper } from '../support/keeper';
import { fixedClock } from '../../shared/core/ports/clock';
import type { Store } from '../../shared/core/store';
import { scanRules } from '../../shared/core/subjects/scan-rule';
import { claimedVisitor } from '../../shared/core/subjects/visitor';
import { personHash, queued } from '../support/hits';
import { settle } from '../support/host';
import { everything, failingAfter, freshCosmos, messageOf, SETTLE_SECONDS, unmarked } from './keep-helpers';

const clock = () => fixedClock('2026-10-23T20:00:00Z');
const foldWith = (store: Store) => fold({ store, clock: clock(), rules: scanRules(10, 60), lateDays: 7 });
const settled = () => settle(SETTLE_SECONDS);
const leaseLapsed = () => fixedClock(new Date(Date.parse('2026-10-23T20:00:00Z') + TIMER_FOLD_BUDGET.leaseSeconds * 1000));

// Before the message under test: a person (ann), a scanner (sam) who will read as a person, both on the 22nd; ann scans tree-1.
const before = messageOf([
  queued('ann', '2026-10-22T09:00:00.000Z', { path: '/a', subject: 'tree-1' }),
  queued('sam', '2026-10-22T09:10:00.000Z', { path: '/wp-login.php', bot: true }),
]);
// The message under test touches every kind of document: a person's second day, a scanner becoming a person, a new
// person, a new scanner, the site's own read, two stores, two hours, two days, and subject scans of every kind (a
// repeat, a reload, a new visitor the beacon claimed, a crawler, the site itself).
const under = messageOf([
  queued('ann', '2026-10-23T10:00:00.000Z', { path: '/a', source: 'github.com', subject: 'tree-1' }),
  queued('ann', '2026-10-23T10:00:04.000Z', { path: '/a', subject: 'tree-1' }),
  queued('ann', '2026-10-23T11:00:00.000Z', { path: '/b', served_by: 'shop', subject: 'tree-2' }),
  queued('sam', '2026-10-23T10:05:00.000Z', { path: '/about' }),
  queued('new', '2026-10-23T10:06:00.000Z', { path: '/' }),
  queued('bob', '2026-10-23T10:06:30.000Z', { path: '/scan', subject: 'tree-1' }),
  queued('bot', '2026-10-23T10:07:00.000Z', { path: '/.env', bot: true, subject: 'tree-1' }),
  queued(null, '2026-10-22T10:08:00.000Z', { path: '/status', subject: 'tree-2' }),
]);

/** A container with `before` kept and folded, and bob's first scan claimed by the beacon. */
async function prepared() {
  const run = await freshCosmos();
  expect((await keeper(run.store, clock())(before)).ok).toBe(true);
  expect(await run.store.subjects.visitors.create(claimedVisitor('tree-1', personHash('bob'), '2026-10-23T10:06:30.000Z'))).toBe('created');
  return run;
}

/** A clean run: `under` kept once, folded once; its documents and the writes of each step. */
async function cleanRun() {
  const run = await prepared();
  await settled();
  expect((await foldWith(run.store)).ok).toBe(true);
  const keeping = failingAfter(run.store, Number.POSITIVE_INFINITY);
  expect((await keeper(keeping, clock())(under)).ok).toBe(true);
  await settled();
  const folding = failingAfter(run.store, Number.POSITIVE_INFINITY);
  expect((await foldWith(folding)).ok).toBe(true);
  return { documents: unmarked(await everything(run.documents)), keepWrites: keeping.writes(), foldWrites: folding.writes() };
}

let cleanMade: ReturnType<typeof cleanRun> | undefined;
/** The clean run the tests compare with, made once for all of them: it is the same each time. */
const cleanOnce = () => (cleanMade ??= cleanRun());

describe('keeping and folding have exactly-once effect on the local Cosmos server', () => {
  it('counts the fixture as worked out by hand', async () => {
    const { documents } = await cleanOnce();
    expect(documents.find((doc) => doc.id === 'visitors-summary')).toMatchObject({
      people_all_time: 4,
      scanners_left_out: 1,
      counted_from: '2026-10-22',
      people_new_by_day: { '2026-10-22': 1, '2026-10-23': 3 },
    });
    expect(documents.find((doc) => doc.id === 'visits-summary')).toMatchObject({
      all_time: 5,
      by_day: { '2026-10-22': 1, '2026-10-23': 4 },
    });
    expect(documents.find((doc) => doc.id === 'subject-summary:tree-1')).toMatchObject({
      scans: 3,
      unique: 2,
      repeat: 1,
      scanners: 1,
      self: 0,
    });
    expect(documents.find((doc) => doc.id === 'subject-summary:tree-2')).toMatchObject({ scans: 1, unique: 1, self: 1 });
    expect(documents.find((doc) => doc.id === 'hour:site:10' && doc.pk === '2026-10-23')).toMatchObject({ requests: 6, bots: 1 });
  });

  it('the same message delivered twice leaves what one delivery leaves', async () => {
    const once = await cleanOnce();
    const twice = await prepared();
    await settled();
    await foldWith(twice.store);
    for (let delivery = 0; delivery < 2; delivery += 1) expect((await keeper(twice.store, clock())(under)).ok).toBe(true);
    await settled();
    await foldWith(twice.store);
    expect(unmarked(await everything(twice.documents))).toEqual(once.documents);
  });

  it('failing right after each write of keep-hits in turn, then retried, leaves what a clean run leaves', async () => {
    const clean = await cleanOnce();
    expect(clean.keepWrites).toBeGreaterThanOrEqual(7);
    const runs = Array.from({ length: clean.keepWrites }, (_, index) => index + 1).map(async (failAfter) => {
      const run = await prepared();
      await settled();
      await foldWith(run.store);
      const failed = await keeper(failingAfter(run.store, failAfter), clock())(under);
      expect(failed, `failing after write ${failAfter}`).toEqual({ ok: false, reason: `injected failure after write ${failAfter}` });
      // A retry may land on another instance (a fresh keeper, with nothing remembered): it finishes the job.
      expect((await keeper(run.store, clock())(under)).ok).toBe(true);
      await settled();
      await foldWith(run.store);
      return { failAfter, documents: unmarked(await everything(run.documents)) };
    });
    for (const run of await Promise.all(runs)) expect(run.documents, `failing after write ${run.failAfter}`).toEqual(clean.documents);
  });

  // Every write of the fold on the local Cosmos server, each run again: a minute or more on a busy machine.
  it('failing right after each write of the fold in turn, then run again, leaves what a clean run leaves', async () => {
    const clean = await cleanOnce();
    expect(clean.foldWrites).toBeGreaterThanOrEqual(12);
    const runs = Array.from({ length: clean.foldWrites }, (_, index) => index + 1).map(async (failAfter) => {
      const run = await prepared();
      await settled();
      await foldWith(run.store);
      expect((await keeper(run.store, clock())(under)).ok).toBe(true);
      await settled();
      const failed = await foldWith(failingAfter(run.store, failAfter));
      // A write whose answer was lost is tried again within the run (its part, day or round, from the watermarks written):
      // the run then finishes, or says it did not, naming the failure. Its last write is the lease's release.
      const finished = failed.ok && failed.behind === null;
      if (failAfter === clean.foldWrites) expect(failed).toMatchObject({ ok: true, behind: null });
      else if (!finished)
        expect(failed.ok ? failed.behind : failed.reason, `failing after write ${failAfter}`).toContain(
          `injected failure after write ${failAfter}`,
        );
      // A fold that died with the lease leaves it to lapse; the next run comes after that.
      expect(await fold({ store: run.store, clock: leaseLapsed(), rules: scanRules(10, 60), lateDays: 7 })).toMatchObject({
        ok: true,
        behind: null,
      });
      return { failAfter, finished, documents: unmarked(await everything(run.documents)) };
    });
    const done = await Promise.all(runs);
    for (const run of done) expect(run.documents, `failing after write ${run.failAfter}`).toEqual(clean.documents);
    // Most lost answers are within a part the run takes up again.
    expect(done.filter((run) => run.finished).length).toBeGreaterThan(clean.foldWrites / 2);
  }, 240_000);

  it('eight keepers at once on overlapping visitors lose no count', async () => {
    const people = ['p1', 'p2', 'p3', 'p4', 'p5'];
    const messages = Array.from({ length: 8 }, (_, n) =>
      messageOf(
        people.flatMap((person, i) => [
          queued(person, `2026-10-23T10:0${i}:0${n}.000Z`, { path: `/page-${n}`, subject: 'tree-1' }),
          queued(`${person}-${n}`, `2026-10-23T10:1${i}:0${n}.000Z`, { path: '/shared', bot: n === 0 && person === 'p5' }),
        ]),
      ),
    );
    const together = await freshCosmos();
    const outcomes = await Promise.all(messages.map((message) => keeper(together.store, clock())(message)));
    expect(outcomes.filter((outcome) => !outcome.ok)).toEqual([]);
    await settled();
    expect(await foldWith(together.store)).toMatchObject({ ok: true });
    const docs = unmarked(await everything(together.documents));
    expect(docs.find((doc) => doc.id === 'hour:site:10')).toMatchObject({ requests: 80, bots: 1, paths: { '/shared': 40 } });
    expect(docs.find((doc) => doc.id === 'visitors-summary')).toMatchObject({
      people_all_time: 5 + 39,
      scanners_left_out: 1,
      people_new_by_day: { '2026-10-23': 44 },
    });
    expect(docs.find((doc) => doc.id === 'subject-summary:tree-1')).toMatchObject({ unique: 5 });
    expect(docs.filter((doc) => doc.kind === 'visitor-record')).toHaveLength(45);
  });

  it('scanners carry a 90-day ttl, people -1, and facts expire after they are folded', async () => {
    const run = await prepared();
    const records = (await everything(run.documents)).filter((doc) => doc.kind === 'visitor-record');
    expect(Object.fromEntries(records.map((doc) => [doc.who, doc.ttl]))).toEqual({ people: -1, scanners: 7_776_000 });
    const facts = (await everything(run.documents)).filter((doc) => doc.kind === 'fact');
    expect(facts.map((doc) => doc.ttl)).toEqual([46 * 86_400]);
  });
});
