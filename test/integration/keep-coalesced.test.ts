import { describe, expect, it } from 'vitest';
import { keeper } from '../../shared/keeping/keep';
import { fixedClock } from '../../shared/ports/clock';
import type { ActivityDoc, Store } from '../../shared/store';
import { queued } from '../support/hits';
import { everything, facts, freshCosmos, messageOf } from './keep-helpers';

const clock = () => fixedClock('2026-10-23T20:00:00Z');
const HOUR = 'hour:site:10';

/** One hit a message, as browser beacons come: all in the same hour, some visitors more than once, a scanner, the site itself. */
const beacons = () =>
  Array.from({ length: 12 }, (_, n) =>
    messageOf([queued(n === 11 ? null : `v${n % 8}`, `2026-10-23T10:${String(n).padStart(2, '0')}:00.000Z`, { path: `/page-${n % 3}`, bot: n === 0 })]),
  );

/**
 * The store with the hour document's writes watched: each write that landed (with the messages it carried), the writes
 * that lost a race, and optionally the first write carrying more than one new message failing, before it lands or after.
 */
function hourWatched(store: Store, fail?: 'before it lands' | 'after it lands') {
  const landed: Set<string>[] = [];
  const failed: Set<string>[] = [];
  let lostRaces = 0;
  const carried = (doc: ActivityDoc) => new Set(Object.keys(doc.applied).filter((id) => !landed.some((write) => write.has(id))));
  const watch = <A extends [ActivityDoc, ...unknown[]]>(write: (...args: A) => Promise<string>) => async (...args: A) => {
    const [doc] = args;
    if (doc.id !== HOUR) return write(...args);
    const messages = carried(doc);
    const failing = fail !== undefined && failed.length === 0 && messages.size > 1;
    if (failing && fail === 'before it lands') {
      failed.push(messages);
      throw new Error('injected failure of a coalesced write');
    }
    const outcome = await write(...args);
    if (outcome === 'stale' || outcome === 'exists') lostRaces += 1;
    else landed.push(messages);
    if (failing) {
      failed.push(messages);
      throw new Error('injected failure of a coalesced write');
    }
    return outcome;
  };
  const activity = { ...store.activity, create: watch(store.activity.create), replace: watch(store.activity.replace) } as Store['activity'];
  return { store: { ...store, activity }, landed, failed, lostRaces: () => lostRaces };
}

/** The documents a clean run leaves: the messages kept one after another. */
async function sequential(messages: ReturnType<typeof beacons>) {
  const clean = await freshCosmos();
  const keep = keeper(clean.store, clock());
  for (const message of messages) expect((await keep(message)).ok).toBe(true);
  return everything(clean.documents);
}

describe('one-hit messages kept at once share the writes of the documents they all change', () => {
  it('twelve at once leave exactly what a sequential run leaves, with fewer hour writes than messages and no lost race', async () => {
    const messages = beacons();
    const expected = await sequential(messages);
    const run = await freshCosmos();
    const watched = hourWatched(run.store);
    const keep = keeper(watched.store, clock());

    const outcomes = await Promise.all(messages.map((message) => keep(message)));

    expect(outcomes).toEqual(messages.map(() => ({ ok: true, hits: 1, already: false })));
    const kept = await everything(run.documents);
    expect(facts(kept)).toEqual(facts(expected));
    // Every message is marked on the hour document once, in whichever write carried it.
    expect(kept.find((doc) => doc.id === HOUR)!.applied).toEqual(expected.find((doc) => doc.id === HOUR)!.applied);
    expect(watched.landed.flatMap((write) => [...write]).sort()).toEqual(messages.map((message) => message.id).sort());
    expect(watched.landed.length).toBeLessThan(messages.length);
    expect(watched.lostRaces()).toBe(0);
  });

  it.each(['before it lands', 'after it lands'] as const)('a coalesced write that fails %s fails every message it carried, and their retries leave a clean run', async (fail) => {
    const messages = beacons();
    const expected = await sequential(messages);
    const run = await freshCosmos();
    const watched = hourWatched(run.store, fail);
    const keep = keeper(watched.store, clock());

    const outcomes = await Promise.all(messages.map((message) => keep(message)));

    expect(watched.failed).toHaveLength(1);
    const carried = watched.failed[0]!;
    expect(carried.size).toBeGreaterThan(1);
    outcomes.forEach((outcome, n) => {
      const id = messages[n]!.id;
      if (carried.has(id)) expect(outcome, id).toEqual({ ok: false, reason: 'injected failure of a coalesced write' });
      else expect(outcome, id).toEqual({ ok: true, hits: 1, already: false });
    });
    // The queue delivers the failed ones again, at once, to this instance.
    const retried = await Promise.all(messages.filter((message) => carried.has(message.id)).map((message) => keep(message)));
    expect(retried.every((outcome) => outcome.ok)).toBe(true);
    const kept = await everything(run.documents);
    expect(facts(kept)).toEqual(facts(expected));
    expect(kept.find((doc) => doc.id === HOUR)).toMatchObject({ requests: messages.length, bots: 1, self: 1 });
  });
});
