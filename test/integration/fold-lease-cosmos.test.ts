import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { CosmosDocuments } from '../../adapters/cosmos/documents';
import { cosmosFoldLeases } from '../../adapters/cosmos/fold-lease';
import {
  releaseFoldLease,
  renewFoldLease,
  takeFoldLease,
  type FoldLeaseAnswer,
  type FoldLeases,
  type HeldFoldLease,
} from '../../shared/core/store/fold-lease';
import { containerOf } from '../support/cosmos';
import { testEnv } from '../support/env';

const NOW = new Date('2026-12-01T19:00:00.000Z');
const SECONDS = 600;
const at = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);

function heldLease(answer: FoldLeaseAnswer): HeldFoldLease {
  if (!answer.held) throw new Error(`expected the lease held, got: ${answer.reason}`);
  return answer.lease;
}

let documents: CosmosDocuments;
let leases: FoldLeases;

beforeAll(async () => {
  // A database of this test's own on the shared local Cosmos server.
  const container = await containerOf(testEnv({ COSMOS_DATABASE: `fold-lease-${randomUUID().slice(0, 12)}` }));
  documents = new CosmosDocuments(container);
  leases = cosmosFoldLeases(documents);
});

describe('the fold lease on the local Cosmos server', () => {
  it('two folds started together a hundred times: every time exactly one holds', async () => {
    for (let round = 0; round < 100; round++) {
      // Round 0 races two creates; every other round races two If-Match replaces of the lease the last round released.
      const now = at(round);
      const answers = await Promise.all([
        takeFoldLease(leases, `fold-a-${round}`, now, SECONDS),
        takeFoldLease(leases, `fold-b-${round}`, now, SECONDS),
      ]);
      const held = answers.filter((answer) => answer.held);
      expect(held, `round ${round}`).toHaveLength(1);
      await releaseFoldLease(leases, heldLease(held[0]!), now);
    }
    expect(documents.counts.failures).toBe(0);
  });

  it('is refused while it runs, taken over once it lapsed, and its old holder’s renewal then answers not held', async () => {
    const start = at(1_000);
    const a = heldLease(await takeFoldLease(leases, 'fold-a', start, SECONDS));
    expect(await takeFoldLease(leases, 'fold-b', new Date(start.getTime() + (SECONDS - 1) * 1000), SECONDS)).toEqual({
      held: false,
      busy: true,
      reason: `another fold holds the lease until ${a.until}`,
    });
    const lapsed = new Date(Date.parse(a.until) + 1000);
    const b = heldLease(await takeFoldLease(leases, 'fold-b', lapsed, SECONDS));
    expect(await renewFoldLease(leases, a, lapsed, SECONDS)).toEqual({ held: false, busy: true, reason: 'the lease was taken over' });
    const renewed = heldLease(await renewFoldLease(leases, b, lapsed, SECONDS));
    expect((await leases.read())?.etag).toBe(renewed.etag);
  });
});
