import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../adapters/memory/store';
import { guesses, SLOWDOWN, slowdownKey, waitAfter } from '../../shared/core/guesses';
import { fixedClock } from '../../shared/core/ports/clock';
import type { GuessCount, GuessCounts } from '../../shared/core/store/guesses';

// The guess counter on the memory store, on a clock the test moves: nothing here waits on the wall clock.

const START = '2026-10-23T10:00:00.000Z';
const HASH = 'test-hash-key-0123456789abcdef';

function rig(counts: GuessCounts = memoryStore().guesses) {
  const clock = fixedClock(START);
  return { clock, counts, counter: guesses({ counts, clock, hashKey: HASH }) };
}

/** The memory store's counts, with every write it was asked for. */
function recording() {
  const written: GuessCount[] = [];
  const store = memoryStore().guesses;
  const counts: GuessCounts = {
    read: store.read,
    create: (doc) => (written.push(doc), store.create(doc)),
    replace: (doc, etag) => (written.push(doc), store.replace(doc, etag)),
  };
  return { written, counts };
}

const right = async () => true;
const wrong = async () => false;

describe('the slowdown', () => {
  it('waits nothing for the first four, 1 s once five are counted, doubling to 30 s', () => {
    expect(Array.from({ length: 12 }, (_, i) => waitAfter(i + 1))).toEqual([0, 0, 0, 0, 1, 2, 4, 8, 16, 30, 30, 30]);
    expect(SLOWDOWN).toMatchObject({ freeGuesses: 5, firstWaitSeconds: 1, longestWaitSeconds: 30, forgetAfterSeconds: 900 });
  });

  it('counts an IPv4 address alone and an IPv6 address by its /64', () => {
    expect(slowdownKey('203.0.113.7')).toBe('203.0.113.7');
    expect(slowdownKey('2001:db8:1:2:aaaa::1')).toBe(slowdownKey('2001:db8:1:2:ffff::9'));
    expect(slowdownKey('2001:db8:1:2::1')).not.toBe(slowdownKey('2001:db8:1:3::1'));
    expect(slowdownKey(null)).toBe('unknown');
    expect(slowdownKey('not an address')).toBe('unknown');
  });
});

describe('guesses counted before they are checked', () => {
  it('checks at most five of a burst, and the rest are told to wait', async () => {
    const { counter } = rig();
    let checks = 0;
    const all = await Promise.all(
      Array.from({ length: 50 }, () =>
        counter.checked('link', '198.51.100.1', async () => {
          checks += 1;
          return false;
        }),
      ),
    );
    expect(checks).toBe(5);
    expect(all.filter((one) => one.outcome === 'wrong')).toHaveLength(5);
    expect(all.filter((one) => one.outcome === 'waiting')).toHaveLength(45);
  });

  it('takes a right guess back, so the holder of a secret is never slowed by using it', async () => {
    const { counter } = rig();
    for (let i = 0; i < 20; i += 1) expect(await counter.checked('link', '198.51.100.2', right)).toEqual({ outcome: 'right' });
    for (let i = 0; i < 4; i += 1) expect(await counter.checked('link', '198.51.100.2', wrong)).toEqual({ outcome: 'wrong', wait: 0 });
    // A right guess takes back its own count only, never a guesser's.
    expect(await counter.checked('link', '198.51.100.2', right)).toEqual({ outcome: 'right' });
    expect(await counter.checked('link', '198.51.100.2', wrong)).toEqual({ outcome: 'wrong', wait: 1 });
    expect(await counter.checked('link', '198.51.100.2', right)).toEqual({ outcome: 'waiting', wait: 1 });
  });

  it('keeps each secret and each address apart', async () => {
    const { counter } = rig();
    for (let i = 0; i < 5; i += 1) await counter.checked('password:link:a', '198.51.100.3', wrong);
    expect((await counter.checked('password:link:a', '198.51.100.3', right)).outcome).toBe('waiting');
    expect((await counter.checked('password:link:b', '198.51.100.3', right)).outcome).toBe('right');
    expect((await counter.checked('password:link:a', '198.51.100.4', right)).outcome).toBe('right');
    expect((await counter.compared('operator', '198.51.100.3', true)).outcome).toBe('right');
  });

  it('forgets an address 15 quiet minutes after its last guess, as the local server, which deletes nothing by TTL, still holds it', async () => {
    const { clock, counter } = rig();
    for (let i = 0; i < 7; i += 1) {
      await counter.checked('operator', '198.51.100.5', wrong);
      clock.advance(31_000);
    }
    expect(await counter.compared('operator', '198.51.100.5', false)).toEqual({ outcome: 'wrong', wait: 8 });
    clock.advance(15 * 60_000 - 1);
    expect((await counter.compared('operator', '198.51.100.5', true)).outcome).toBe('right');
    expect(await counter.compared('operator', '198.51.100.5', false)).toEqual({ outcome: 'wrong', wait: 16 });
    clock.advance(15 * 60_000);
    expect(await counter.compared('operator', '198.51.100.5', false)).toEqual({ outcome: 'wrong', wait: 0 });
  });
});

describe('keys compared in constant time', () => {
  it('counts a wrong key, refuses a right one while its address waits, and never counts a right one', async () => {
    const { written, counts } = recording();
    const { clock, counter } = rig(counts);
    expect(await counter.compared('operator', '198.51.100.6', true)).toEqual({ outcome: 'right' });
    const wrongs = await Promise.all(Array.from({ length: 30 }, () => counter.compared('operator', '198.51.100.6', false)));
    expect(wrongs.filter((one) => one.outcome === 'wrong')).toHaveLength(5);
    expect(await counter.compared('operator', '198.51.100.6', true)).toEqual({ outcome: 'waiting', wait: 1 });
    clock.advance(1_000);
    const rights = await Promise.all(Array.from({ length: 8 }, () => counter.compared('operator', '198.51.100.6', true)));
    expect(rights).toEqual(Array.from({ length: 8 }, () => ({ outcome: 'right' })));
    const ids = new Set(written.map((doc) => doc.id));
    expect(ids.size).toBe(1);
    expect((await counts.read([...ids][0]!))!.doc.guesses).toBe(5);
  });

  it("reads a server's right key against its count and writes nothing, so a busy sender's requests never contend", async () => {
    const { written, counts } = recording();
    const { clock, counter } = rig(counts);
    const rights = await Promise.all(Array.from({ length: 20 }, () => counter.sent('ingest', '198.51.100.11', true)));
    expect(rights.every((one) => one.outcome === 'right')).toBe(true);
    expect(written).toHaveLength(0);
    const wrongs = await Promise.all(Array.from({ length: 30 }, () => counter.sent('ingest', '198.51.100.11', false)));
    expect(wrongs.filter((one) => one.outcome === 'wrong')).toHaveLength(5);
    expect(await counter.sent('ingest', '198.51.100.11', true)).toEqual({ outcome: 'waiting', wait: 1 });
    clock.advance(1_000);
    expect(await counter.sent('ingest', '198.51.100.11', true)).toEqual({ outcome: 'right' });
  });

  it('answers a right key sent behind a burst of wrong ones by its place in the count, not before them', async () => {
    const { counter } = rig();
    const burst = [...Array.from({ length: 50 }, () => false), true].map((right) => counter.compared('operator', '198.51.100.9', right));
    const answers = await Promise.all(burst);
    expect(answers.filter((one) => one.outcome !== 'waiting')).toHaveLength(5);
    expect(answers.at(-1)).toEqual({ outcome: 'waiting', wait: 1 });
  });

  it('does not check a guess it cannot count: a store that keeps losing the race answers wait', async () => {
    const store = memoryStore().guesses;
    const losing: GuessCounts = { ...store, create: async () => 'exists', replace: async () => 'stale' };
    const { counter } = rig(losing);
    let checks = 0;
    const outcome = await counter.checked('link', '198.51.100.7', async () => {
      checks += 1;
      return true;
    });
    expect(outcome).toEqual({ outcome: 'waiting', wait: 1 });
    expect(checks).toBe(0);
    expect(await counter.compared('operator', '198.51.100.7', true)).toEqual({ outcome: 'waiting', wait: 1 });
  });

  it('counts in the process while the store cannot answer, the same way: five wrong, then every key waits', async () => {
    const down = async (): Promise<never> => {
      throw new Error('the store is down');
    };
    const { clock, counter } = rig({ read: down, create: down, replace: down });
    expect(await counter.sent('ingest', '198.51.100.8', true)).toEqual({ outcome: 'right' });
    const wrongs = await Promise.all(Array.from({ length: 30 }, () => counter.sent('ingest', '198.51.100.8', false)));
    expect(wrongs.filter((one) => one.outcome === 'wrong')).toHaveLength(5);
    expect(await counter.sent('ingest', '198.51.100.8', true)).toEqual({ outcome: 'waiting', wait: 1 });
    expect(await counter.compared('operator', '198.51.100.8', true)).toEqual({ outcome: 'right' });
    let checks = 0;
    const link = await counter.checked('link', '198.51.100.8', async () => {
      checks += 1;
      return true;
    });
    expect([link, checks]).toEqual([{ outcome: 'right' }, 1]);
    clock.advance(1_000);
    expect(await counter.sent('ingest', '198.51.100.8', true)).toEqual({ outcome: 'right' });
    expect(await counter.sent('ingest', '198.51.100.10', true)).toEqual({ outcome: 'right' });
  });
});
