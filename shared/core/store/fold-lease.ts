import { errorLine } from '../errors';
import type { Conditional, Versioned } from './documents';
import { VISITORS_PK } from './visitors';

export const FOLD_LEASE_ID = 'fold-lease';

/** One fold at a time; it lapses at `until`, so a fold that dies holding it stops no other for longer. */
export interface FoldLeaseDoc {
  id: typeof FOLD_LEASE_ID;
  pk: typeof VISITORS_PK;
  kind: 'fold-lease';
  holder: string;
  until: string;
}

export type FoldLeases = Conditional<FoldLeaseDoc, []>;

export interface HeldFoldLease {
  holder: string;
  etag: string;
  until: string;
}

/** Not held and `busy`: another fold has it. Not busy: the store did not answer. */
export type FoldLeaseAnswer = { held: true; lease: HeldFoldLease } | { held: false; busy: boolean; reason: string };

const leaseDoc = (holder: string, until: string): FoldLeaseDoc => ({
  id: FOLD_LEASE_ID,
  pk: VISITORS_PK,
  kind: 'fold-lease',
  holder,
  until,
});

const untilAfter = (now: Date, seconds: number) => new Date(now.getTime() + seconds * 1000).toISOString();

const notHeld = (reason: string, busy = true): FoldLeaseAnswer => ({ held: false, busy, reason });

const failed = (doing: 'read' | 'written', error: unknown) => notHeld(`the fold lease could not be ${doing}: ${errorLine(error)}`, false);

const runsPast = (doc: FoldLeaseDoc, now: Date) => Date.parse(doc.until) > now.getTime();

/** Create and replace answer no etag, so it is read back; it is ours only if it still names our holder and `until`. */
async function writtenBack(leases: FoldLeases, written: FoldLeaseDoc, lost: string): Promise<FoldLeaseAnswer> {
  let found: Versioned<FoldLeaseDoc> | null;
  try {
    found = await leases.read();
  } catch (error) {
    return failed('read', error);
  }
  if (!found || found.doc.holder !== written.holder || found.doc.until !== written.until) return notHeld(lost);
  return { held: true, lease: { holder: written.holder, etag: found.etag, until: written.until } };
}

/** Takes it when there is none, when it has lapsed or when it is already `holder`'s. Never throws. */
export async function takeFoldLease(leases: FoldLeases, holder: string, now: Date, seconds: number): Promise<FoldLeaseAnswer> {
  const wanted = leaseDoc(holder, untilAfter(now, seconds));
  const lost = 'another fold took the lease first';
  let current: Versioned<FoldLeaseDoc> | null;
  try {
    current = await leases.read();
  } catch (error) {
    return failed('read', error);
  }
  if (current && current.doc.holder !== holder && runsPast(current.doc, now)) {
    return notHeld(`another fold holds the lease until ${current.doc.until}`);
  }
  try {
    const written = current ? await leases.replace(wanted, current.etag) : await leases.create(wanted);
    if (written === 'exists' || written === 'stale') return notHeld(lost);
  } catch (error) {
    return failed('written', error);
  }
  return writtenBack(leases, wanted, lost);
}

/** Not held when another fold took it over or the store did not answer. Never throws. */
export async function renewFoldLease(leases: FoldLeases, lease: HeldFoldLease, now: Date, seconds: number): Promise<FoldLeaseAnswer> {
  const wanted = leaseDoc(lease.holder, untilAfter(now, seconds));
  const lost = 'the lease was taken over';
  try {
    if ((await leases.replace(wanted, lease.etag)) === 'stale') return notHeld(lost);
  } catch (error) {
    return failed('written', error);
  }
  return writtenBack(leases, wanted, lost);
}

/** Lapses it now so another fold can take it at once; a failure is ignored since it lapses anyway. Never throws. */
export async function releaseFoldLease(leases: FoldLeases, lease: HeldFoldLease, now: Date): Promise<void> {
  try {
    await leases.replace(leaseDoc(lease.holder, now.toISOString()), lease.etag);
  } catch {
    // Ignored on purpose: the lease lapses at its `until` anyway.
  }
}
