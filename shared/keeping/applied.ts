import type { Applied } from '../store/documents';
import type { Receipts } from '../store/receipts';

/** Every this many entries from other messages, a document's applied list is pruned before it is written (one query). */
export const PRUNE_EVERY = 8;

/**
 * How long after a message's receipt its entries are kept anyway: a second delivery of the same message that started
 * before the receipt was written (a lease that ran out mid-invocation) still finds them for this long.
 */
export const GRACE_SECONDS = 120;

/** Past this age an entry goes whatever its receipt says: a queue message lives 7 days at most, a receipt 14. */
export const HORIZON_SECONDS = 14 * 86_400;

/**
 * The entries (message id → when applied, epoch seconds) a document can drop before it is written: none while there
 * are few or between checks; otherwise those older than the horizon, and those whose message has a receipt older than the grace. A
 * message with no receipt may still be retried, so its entry stays: that is what makes its retry a no-op here.
 */
async function settledEntries(
  entries: Record<string, number>,
  current: string,
  receipts: Receipts,
  now: number,
): Promise<Set<string>> {
  const others = Object.keys(entries).filter((id) => id !== current);
  // Checked at every PRUNE_EVERY-th entry, not at every write past it: entries still in their grace would be asked about again and again.
  if (others.length === 0 || others.length % PRUNE_EVERY !== 0) return new Set();
  const settled = new Set(others.filter((id) => (entries[id] ?? 0) < now - HORIZON_SECONDS));
  const found = await receipts.readMany(others.filter((id) => !settled.has(id)));
  for (const [id, receipt] of found) if (receipt.at <= now - GRACE_SECONDS) settled.add(id);
  return settled;
}

/** The entries without the settled ones. */
function without<T>(entries: Record<string, T>, settled: ReadonlySet<string>): Record<string, T> {
  return Object.fromEntries(Object.entries(entries).filter(([id]) => !settled.has(id)));
}

/** A document's applied list as message `id` writes it: pruned of the settled entries, with its own entry (now) added. */
export async function appliedWith(applied: Applied, id: string, receipts: Receipts, now: () => number): Promise<Applied> {
  const kept = without(applied, await settledEntries(applied, id, receipts, now()));
  return { ...kept, [id]: now() };
}

/**
 * A document's pending changes (message id → change, with when it was made) as message `id` writes it: pruned of the
 * settled ones the way an applied list is, with its own change (null: it changes nothing) added.
 */
export async function pendingWith<Change extends object>(
  pending: Record<string, Change & { at: number }>,
  id: string,
  change: Change | null,
  receipts: Receipts,
  now: () => number,
): Promise<Record<string, Change & { at: number }>> {
  const ages = Object.fromEntries(Object.entries(pending).map(([other, entry]) => [other, entry.at]));
  const kept = without(pending, await settledEntries(ages, id, receipts, now()));
  if (change !== null) kept[id] = { ...change, at: now() };
  return kept;
}
