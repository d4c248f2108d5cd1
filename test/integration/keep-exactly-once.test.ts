import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../shared/ports/clock';
import { keeper } from '../../shared/keeping/keep';
import { queued } from '../support/hits';
import { everything, facts, failingAfter, freshCosmos, messageOf } from './keep-helpers';

const clock = () => fixedClock('2026-10-23T20:00:00Z');

// Before the message under test: a person (ann), a scanner (sam) who will read as a person, both on the 22nd.
const before = messageOf([
  queued('ann', '2026-10-22T09:00:00.000Z', { path: '/a' }),
  queued('sam', '2026-10-22T09:10:00.000Z', { path: '/wp-login.php', bot: true }),
]);
// The message under test touches every kind of write: a person's second day, a scanner becoming a person, a new
// person, a new scanner, the site's own read, two stores, two hours, and the visitors summary.
const under = messageOf([
  queued('ann', '2026-10-23T10:00:00.000Z', { path: '/a', source: 'github.com' }),
  queued('ann', '2026-10-23T11:00:00.000Z', { path: '/b', store: 'shop' }),
  queued('sam', '2026-10-23T10:05:00.000Z', { path: '/about' }),
  queued('new', '2026-10-23T10:06:00.000Z', { path: '/' }),
  queued('bot', '2026-10-23T10:07:00.000Z', { path: '/.env', bot: true }),
  queued(null, '2026-10-23T10:08:00.000Z', { path: '/status' }),
]);

describe('keeping has exactly-once effect on the local Cosmos server', () => {
  it('the same message twice leaves what one delivery leaves, and the second costs one read', async () => {
    const once = await freshCosmos();
    await keeper(once.store, clock())(before);
    await keeper(once.store, clock())(under);
    const twice = await freshCosmos();
    const keep = keeper(twice.store, clock());
    await keep(before);
    expect(await keep(under)).toEqual({ ok: true, hits: 6, already: false });
    const cost = twice.store.stats();
    expect(await keeper(twice.store, clock())(under)).toEqual({ ok: true, hits: 6, already: true });
    expect(twice.store.stats().reads - cost.reads).toBe(1);
    expect(twice.store.stats().writes).toBe(cost.writes);
    expect(await everything(twice.documents)).toEqual(await everything(once.documents));
  });

  it('failing right after each of its writes in turn, then retried, leaves what a clean run leaves', async () => {
    const clean = await freshCosmos();
    await keeper(clean.store, clock())(before);
    const counting = failingAfter(clean.store, Number.POSITIVE_INFINITY);
    expect((await keeper(counting, clock())(under)).ok).toBe(true);
    const writes = counting.writes();
    const expected = await everything(clean.documents);
    expect(writes).toBeGreaterThanOrEqual(9);

    for (let failAfter = 1; failAfter <= writes; failAfter += 1) {
      const run = await freshCosmos();
      await keeper(run.store, clock())(before);
      const failed = await keeper(failingAfter(run.store, failAfter), clock())(under);
      expect(failed, `failing after write ${failAfter}`).toEqual({ ok: false, reason: `injected failure after write ${failAfter}` });
      // A retry may land on another instance (a fresh keeper) or this one; both finish the job.
      const retried = await keeper(run.store, clock())(under);
      expect(retried.ok).toBe(true);
      expect(await everything(run.documents), `failing after write ${failAfter}`).toEqual(expected);
    }
  });

  it('four invocations at once on overlapping visitors lose no count', async () => {
    const people = ['p1', 'p2', 'p3', 'p4', 'p5'];
    const messages = [0, 1, 2, 3].map((n) =>
      messageOf(
        people.flatMap((person, i) => [
          queued(person, `2026-10-23T10:0${i}:0${n}.000Z`, { path: `/page-${n}` }),
          queued(person, `2026-10-23T10:1${i}:0${n}.000Z`, { path: '/shared', bot: n === 0 && person === 'p5' }),
        ]),
      ),
    );
    const together = await freshCosmos();
    for (let round = 0; round < 3; round += 1) {
      const batch = messages.map((message) => messageOf(message.hits));
      const outcomes = await Promise.all(batch.map((message) => keeper(together.store, clock())(message)));
      expect(outcomes.every((outcome) => outcome.ok)).toBe(true);
    }
    const docs = facts(await everything(together.documents));
    const hour = docs.find((doc) => doc.id === 'hour:site:10');
    expect(hour).toMatchObject({ requests: 3 * 4 * 10, bots: 3, paths: { '/shared': 60, '/page-0': 15, '/page-1': 15, '/page-2': 15, '/page-3': 15 } });
    for (const person of people) {
      const day = docs.find((doc) => doc.kind === 'visitor-day' && doc.token === queued(person, '2026-10-23T00:00:00.000Z').token);
      expect(day).toMatchObject({ requests: 24, first_seen: `2026-10-23T10:0${people.indexOf(person)}:00.000Z`, last_seen: `2026-10-23T10:1${people.indexOf(person)}:03.000Z` });
    }
    expect(docs.find((doc) => doc.id === 'visitors-summary')).toMatchObject({ people_all_time: 5, scanners_left_out: 0, people_new_by_day: { '2026-10-23': 5 } });
    expect(docs.filter((doc) => doc.kind === 'visitor-record').map((doc) => doc.days_seen)).toEqual([1, 1, 1, 1, 1]);
  });

  it('scanners carry a 90-day ttl, people -1, and the scanners left out stand after the scanner records go', async () => {
    const { store, documents } = await freshCosmos();
    const keep = keeper(store, clock());
    await keep(before);
    await keep(messageOf([queued('crawler', '2026-10-23T01:00:00.000Z', { bot: true }), queued('probe', '2026-10-23T01:00:00.000Z', { bot: true })]));
    const records = (await everything(documents)).filter((doc) => doc.kind === 'visitor-record');
    expect(Object.fromEntries(records.map((doc) => [doc.who, doc.ttl]))).toEqual({ people: -1, scanners: 7_776_000 });
    expect(records.filter((doc) => doc.who === 'scanners')).toHaveLength(3);
    expect((await store.visitors.tally('2026-10-01')).scanners_left_out).toBe(3);

    // As their ttl would (the local server does not expire documents), the scanner records go.
    for (const doc of records.filter((one) => one.who === 'scanners')) await documents.delete(doc.pk, doc.id);
    await keep(messageOf([queued('later', '2026-10-23T12:00:00.000Z')]));
    expect(await store.visitors.tally('2026-10-23')).toEqual({ people_all_time: 2, scanners_left_out: 3, counted_from: '2026-10-22', people_new_by_day: { '2026-10-23': 1 } });
  });
});
