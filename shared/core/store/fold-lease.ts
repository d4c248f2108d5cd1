import { errorLine } from '../errors';
import type { Conditional, Versioned } from './documents';
import { VISITORS_PK } from './visitors';

/** The fold lease's id in the `visitors` partition. */
export const FOLD_LEASE_ID = 'fold-lease';

/**
 * Who may fold now (pk `visitors`, id `fold-lease`): the fold's timer and every fold run on demand take it before
 * folding, so one fold runs at a time. It is held by `holder` until `until` (ISO 8601 UTC, the taker's clock), and
 * lapses then, so a fold that dies holding it stops no other for longer than that.
 */
export interface FoldLeaseDoc {
  id: typeof FOLD_LEASE_ID;
  pk: typeof VISITORS_PK;
  kind: 'fold-lease';
  holder: string;
  until: string;
}

/** The fold lease, read with its version and written conditionally. */
export type FoldLeases = Conditional<FoldLeaseDoc, []>;

/** A lease as its holder keeps it: the version to renew or release it by, and until when it runs. */
export interface HeldFoldLease {
  holder: string;
  etag: string;
  until: string;
}

/**
 * A lease's answer: held, or not, with why in one sentence. Not held and `busy`: another fold holds it or took it
 * first, the lease working; not `busy`: the store did not answer, so nobody may be folding.
 */
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

/** What a store that threw answers, named by what was being done. */
const failed = (doing: 'read' | 'written', error: unknown) => notHeld(`the fold lease could not be ${doing}: ${errorLine(error)}`, false);

const runsPast = (doc: FoldLeaseDoc, now: Date) => Date.parse(doc.until) > now.getTime();

/**
 * The lease as just written, with its new version. The port's create and replace answer no etag, so it is read back:
 * the write is ours only if the document still names our holder and our `until` (another fold may have written since).
 */
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

/**
 * Takes the fold lease for `holder` for `seconds` from `now`: creates it when there is none, or replaces it (If-Match
 * the version read) when it has lapsed or is already `holder`'s. Held by another fold until after `now`, or lost to
 * a fold that wrote it first, it answers not held; so does a store that could not answer. Never throws.
 */
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

/**
 * Extends a held lease to `seconds` from `now`, If-Match its version: answers the lease with its new version, or not
 * held when another fold took it over since (or the store could not answer). Never throws.
 */
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

/**
 * Gives a held lease up: makes it lapse at `now`, If-Match its version, so another fold can take it at once. Whatever
 * the store answers (taken over already, down) is ignored: a lease not given up lapses on its own. Never throws.
 */
export async function releaseFoldLease(leases: FoldLeases, lease: HeldFoldLease, now: Date): Promise<void> {
  try {
    await leases.replace(leaseDoc(lease.holder, now.toISOString()), lease.etag);
  } catch {
    // Ignored on purpose: the lease lapses at its `until` anyway.
  }
}
