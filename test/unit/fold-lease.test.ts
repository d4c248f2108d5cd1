import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../adapters/memory/store';
import {
  releaseFoldLease,
  renewFoldLease,
  takeFoldLease,
  type FoldLeaseAnswer,
  type FoldLeases,
  type HeldFoldLease,
} from '../../shared/core/store/fold-lease';

const NOW = new Date('2026-12-01T19:00:00.000Z');
const SECONDS = 600;
const at = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);

/** The lease of an answer that must be held. */
function heldLease(answer: FoldLeaseAnswer): HeldFoldLease {
  if (!answer.held) throw new Error(`expected the lease held, got: ${answer.reason}`);
  return answer.lease;
}

/** A store that cannot answer: every call throws, as a store that is down. */
const downStore = (): FoldLeases => {
  const down = () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:8081\n    at somewhere'));
  return { read: down, create: down, replace: down };
};

describe('the fold lease', () => {
  it('is taken when free, until `seconds` after now', async () => {
    const { foldLease } = memoryStore();
    const lease = heldLease(await takeFoldLease(foldLease, 'fold-a', NOW, SECONDS));
    expect(lease).toMatchObject({ holder: 'fold-a', until: '2026-12-01T19:10:00.000Z' });
    expect((await foldLease.read())?.etag).toBe(lease.etag);
  });

  it('is refused to another fold while its holder’s lease runs, saying until when', async () => {
    const { foldLease } = memoryStore();
    heldLease(await takeFoldLease(foldLease, 'fold-a', NOW, SECONDS));
    expect(await takeFoldLease(foldLease, 'fold-b', at(SECONDS - 1), SECONDS)).toEqual({
      held: false,
      busy: true,
      reason: 'another fold holds the lease until 2026-12-01T19:10:00.000Z',
    });
  });

  it('is taken again by its own holder while it runs', async () => {
    const { foldLease } = memoryStore();
    heldLease(await takeFoldLease(foldLease, 'fold-a', NOW, SECONDS));
    expect(heldLease(await takeFoldLease(foldLease, 'fold-a', at(60), SECONDS)).until).toBe(at(60 + SECONDS).toISOString());
  });

  it('is taken over once it has lapsed, and its old holder’s renewal then answers not held', async () => {
    const { foldLease } = memoryStore();
    const a = heldLease(await takeFoldLease(foldLease, 'fold-a', NOW, SECONDS));
    const b = heldLease(await takeFoldLease(foldLease, 'fold-b', at(SECONDS), SECONDS));
    expect(b.holder).toBe('fold-b');
    expect(await renewFoldLease(foldLease, a, at(SECONDS + 1), SECONDS)).toEqual({
      held: false,
      busy: true,
      reason: 'the lease was taken over',
    });
    expect((await foldLease.read())?.doc.holder).toBe('fold-b');
  });

  it('is extended by a renewal, which answers the new version to renew by next', async () => {
    const { foldLease } = memoryStore();
    const first = heldLease(await takeFoldLease(foldLease, 'fold-a', NOW, SECONDS));
    const renewed = heldLease(await renewFoldLease(foldLease, first, at(300), SECONDS));
    expect(renewed).toMatchObject({ holder: 'fold-a', until: at(300 + SECONDS).toISOString() });
    expect(renewed.etag).not.toBe(first.etag);
    // Past the first `until`, still held: another fold is refused, and the holder renews again by the new version.
    expect((await takeFoldLease(foldLease, 'fold-b', at(SECONDS + 1), SECONDS)).held).toBe(false);
    heldLease(await renewFoldLease(foldLease, renewed, at(SECONDS + 1), SECONDS));
  });

  it('once released, is taken by another fold at once', async () => {
    const { foldLease } = memoryStore();
    const a = heldLease(await takeFoldLease(foldLease, 'fold-a', NOW, SECONDS));
    await releaseFoldLease(foldLease, a, at(5));
    expect(heldLease(await takeFoldLease(foldLease, 'fold-b', at(5), SECONDS)).holder).toBe('fold-b');
  });

  it('released after a takeover, leaves the new holder’s lease as it was', async () => {
    const { foldLease } = memoryStore();
    const a = heldLease(await takeFoldLease(foldLease, 'fold-a', NOW, SECONDS));
    const b = heldLease(await takeFoldLease(foldLease, 'fold-b', at(SECONDS), SECONDS));
    await releaseFoldLease(foldLease, a, at(SECONDS + 1));
    expect((await foldLease.read())?.doc).toMatchObject({ holder: 'fold-b', until: b.until });
  });

  it('answers not held, with a reason, when the store cannot answer; and never throws', async () => {
    const leases = downStore();
    expect(await takeFoldLease(leases, 'fold-a', NOW, SECONDS)).toEqual({
      held: false,
      busy: false,
      reason: 'the fold lease could not be read: connect ECONNREFUSED 127.0.0.1:8081',
    });
    const lease: HeldFoldLease = { holder: 'fold-a', etag: '"1"', until: at(SECONDS).toISOString() };
    expect(await renewFoldLease(leases, lease, NOW, SECONDS)).toEqual({
      held: false,
      busy: false,
      reason: 'the fold lease could not be written: connect ECONNREFUSED 127.0.0.1:8081',
    });
    await expect(releaseFoldLease(leases, lease, NOW)).resolves.toBeUndefined();
  });

  it('answers not held when the store fails on the write after a read', async () => {
    const { foldLease } = memoryStore();
    const failing: FoldLeases = { ...foldLease, create: () => Promise.reject(new Error('request timed out')) };
    expect(await takeFoldLease(failing, 'fold-a', NOW, SECONDS)).toEqual({
      held: false,
      busy: false,
      reason: 'the fold lease could not be written: request timed out',
    });
  });

  it('two folds started together a hundred times: every time exactly one holds', async () => {
    let store = memoryStore();
    for (let round = 0; round < 100; round++) {
      // Every tenth round on a fresh store (both create), the others on the last round's released lease (both replace).
      if (round % 10 === 0) store = memoryStore();
      const now = at(round);
      const answers = await Promise.all([
        takeFoldLease(store.foldLease, `fold-a-${round}`, now, SECONDS),
        takeFoldLease(store.foldLease, `fold-b-${round}`, now, SECONDS),
      ]);
      const held = answers.filter((answer) => answer.held);
      expect(held, `round ${round}`).toHaveLength(1);
      await releaseFoldLease(store.foldLease, heldLease(held[0]!), now);
    }
  });
});
