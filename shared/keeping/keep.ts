import type { HitsMessage } from '../hits/message';
import type { Clock } from '../ports/clock';
import type { ActivityDoc } from '../store/activity';
import type { KeepingStore } from '../store';
import { RECEIPT_TTL_SECONDS, RECEIPTS_PK } from '../store/receipts';
import type { SummaryDelta } from '../store/summary';
import type { VisitorRecord } from '../store/visitors';
import { additions, type ActivityPart } from './activity';
import { appliedWith, pendingWith } from './applied';
import { Coalesced } from './coalesced';
import { applyDelta, isEmpty, noDelta, plus } from './delta';
import { KeptToday } from './kept-today';
import { planOf, type Sighting } from './plan';
import { sightedRecord } from './visitor';
import { errorLine } from '../errors';

/** What keeping a message did: kept (or found already kept), or could not reach the store (the queue retries). */
export type KeepOutcome =
  | { ok: true; hits: number; already: boolean }
  | { ok: false; reason: string };

/** Keeps one message's hits; the same message any number of times, or retried after any failure, counts once. */
export type Keeper = (message: HitsMessage) => Promise<KeepOutcome>;


/**
 * The keeping use case. Every write is conditional and carries the message id, so any write may be the last before a
 * failure and the retry finishes the job without counting anything twice:
 *
 * 1. A message with a receipt is finished: nothing to do.
 * 2. Each person hash's record is read and merged with the message's sightings (one write at most, none when it
 *    changes nothing); a write that changes the summary keeps that change on the record under the message id.
 * 3. The summary takes the sum of the message's changes, found on the records (so a retry finds them even though the
 *    records were written before), once: the summary lists the message ids it has applied.
 * 4. Each visitor-day and hour document takes the message's counts once, the same way.
 * 5. The receipt is created last; from then on the message's entries on the documents may be pruned.
 */
export function keeper(store: KeepingStore, clock: Clock, kept = new KeptToday()): Keeper {
  const now = () => Math.floor(clock.now().getTime() / 1000);
  // Invocations that change the same document at once share its next write (see coalesced.ts).
  const records = new Coalesced(store.records);
  const summary = new Coalesced(store.summary);
  const activity = new Coalesced(store.activity);

  /** The record after the message's sightings, and its change to the summary; whether the record is settled enough to remember. */
  const keepVisitor = async (id: string, hash: string, sightings: Sighting[]): Promise<{ delta: SummaryDelta; settled: boolean }> => {
    let delta = noDelta();
    let settled = true;
    await records.change(
      [hash],
      async (current: VisitorRecord | null) => {
        const mine = current?.pending[id];
        settled = Object.keys(current?.pending ?? {}).every((other) => other === id);
        if (mine) {
          // This message wrote the record before and failed after: its change is there, and the merge is done.
          const { at: _at, ...change } = mine;
          delta = change;
          return null;
        }
        const sighted = sightedRecord(current, hash, sightings);
        delta = sighted?.delta ?? noDelta();
        if (!sighted) return null;
        const pending = await pendingWith(current?.pending ?? {}, id, isEmpty(delta) ? null : delta, store.receipts, now);
        return { ...sighted.record, pending };
      },
      `visitor record ${hash.slice(0, 8)}`,
    );
    return { delta, settled };
  };

  const keepSummary = async (id: string, delta: SummaryDelta) => {
    if (isEmpty(delta)) return;
    await summary.change(
      [],
      async (current) => {
        if (current?.applied[id] !== undefined) return null;
        const next = applyDelta(current, delta);
        next.applied = await appliedWith(next.applied, id, store.receipts, now);
        return next;
      },
      'visitors summary',
    );
  };

  const keepActivity = async (id: string, { part, add }: ActivityPart) => {
    await activity.change(
      [part.day, part.id],
      async (current: ActivityDoc | null) => {
        if (current?.applied[id] !== undefined) return null;
        const next = add(current);
        next.applied = await appliedWith(next.applied, id, store.receipts, now);
        return next;
      },
      `activity ${part.day} ${part.id}`,
    );
  };

  return async (message) => {
    try {
      if ((await store.receipts.read(message.id)) !== null) return { ok: true, hits: message.hits.length, already: true };
      const plan = planOf(message.hits);
      const visitors = [...plan.sightings]
        .map(([hash, sightings]) => ({ hash, sightings: kept.unkept(hash, sightings) }))
        .filter((visitor) => visitor.sightings.length > 0);
      const keepVisitors = async () => {
        const seen = await Promise.all(visitors.map((visitor) => keepVisitor(message.id, visitor.hash, visitor.sightings)));
        await keepSummary(message.id, seen.reduce((sum, one) => plus(sum, one.delta), noDelta()));
        return seen;
      };
      const [seen] = await Promise.all([keepVisitors(), Promise.all(additions(plan.visitorDays, plan.hours).map((part) => keepActivity(message.id, part)))]);
      await store.receipts.create({ id: message.id, pk: RECEIPTS_PK, kind: 'receipt', at: now(), hits: message.hits.length, ttl: RECEIPT_TTL_SECONDS });
      visitors.forEach((visitor, index) => {
        if (seen[index]?.settled) kept.remember(visitor.hash, visitor.sightings);
      });
      return { ok: true, hits: message.hits.length, already: false };
    } catch (error) {
      return { ok: false, reason: errorLine(error) };
    }
  };
}
