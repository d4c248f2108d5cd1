import type { Clock } from '../ports/clock';
import type { Logger } from '../ports/logger';
import { utcDay } from '../identity/tokens';
import type { ActivityReader, VisitorDay } from '../store/activity';
import { emptyVisits, type VisitorDayChanges, type VisitsSummaries, type VisitsSummary } from '../store/visits';
import { addDays, earlierDay } from './days';
import { reasonOf } from './people-count';
import { reconcileVisitors, type ReconcileDeps, type ReconcileOutcome } from './reconcile';
import { countVisits, mergeVisits, visitsTotals } from './visits';

/** How often a count reads from the day before the newest day held (between them, today alone is counted). */
export const FULL_EVERY_MS = 3_600_000;

/** How long after a read that failed or came back empty the next read waits: sooner than an hour, never at once. */
export const RETRY_AFTER_MS = 300_000;

/** How often the visitors summary is reconciled with the visitor records. */
export const RECONCILE_EVERY_MS = 3_600_000;

/** Before any day the site can have kept, so a read from here is every kept day. */
export const EVERY_DAY = '0000-01-01';

/** What a count reads: every kept day (the first), from the day before the newest held (hourly), today (each minute). */
export type ReadPlan = { read: 'all' | 'since-newest' | 'today'; since: string } | { read: 'waiting'; until: string };

/** A plan that reads. */
type Reading = Extract<ReadPlan, { since: string }>;

/** What the recount needs; `reconcile` is absent on a host that keeps no visitor records to reconcile with. */
export interface RecountDeps {
  visits: VisitsSummaries;
  activity: Pick<ActivityReader, 'visitorDaysSince'>;
  changes: VisitorDayChanges;
  clock: Clock;
  logger: Logger;
  /** How many days back a hit may still land (HIT_MAX_AGE_DAYS): an hourly count reads at least that far back. */
  lateDays: number;
  reconcile?: Omit<ReconcileDeps, 'clock'>;
}

/** What one run did: the plan, the rows it read, the visits held after it, and whether it wrote and reconciled. */
export type RecountOutcome =
  | { ok: true; plan: ReadPlan; rows: number; visits: number; wrote: boolean; reconciled: ReconcileOutcome | 'not-due' | 'failed' }
  | { ok: false; reason: string };

const msSince = (now: Date, iso: string | null) => (iso === null ? Infinity : now.getTime() - Date.parse(iso));

/** The read this run makes, from what the summary holds and the time. */
export function planRead(held: VisitsSummary, now: Date, lateDays: number): ReadPlan {
  const today = utcDay(now);
  if (held.retry_after !== null && now.getTime() < Date.parse(held.retry_after)) return { read: 'waiting', until: held.retry_after };
  if (held.newest_day === null || held.full_at === null) return { read: 'all', since: EVERY_DAY };
  if (msSince(now, held.full_at) >= FULL_EVERY_MS) {
    // A day's rows can still be written at its boundary, and a hit may arrive up to lateDays late.
    return { read: 'since-newest', since: earlierDay(addDays(held.newest_day, -1), addDays(today, -lateDays)) };
  }
  // Today again; after midnight, from the day of the last count, so yesterday's last minutes are not lost.
  return { read: 'today', since: earlierDay(today, utcDay(new Date(held.counted_at ?? now.toISOString()))) };
}

/** The plan read back to the earliest day written since the last count: a hit may arrive with an `at` days old. */
export function widened(plan: Reading, changedDays: readonly string[]): Reading {
  if (plan.read === 'all' || changedDays.length === 0) return plan;
  return { ...plan, since: earlierDay(plan.since, changedDays[0]!) };
}

/** What a read answered: the rows, and the store's mark of the changes it covers; null when it failed. */
export interface Read {
  rows: readonly VisitorDay[];
  mark: number;
}

/** The summary after a read, or after a read that failed (null). */
export function afterRead(held: VisitsSummary, plan: ReadPlan, read: Read | null, now: Date): VisitsSummary {
  if (plan.read === 'waiting') return held;
  const retry = { ...held, retry_after: new Date(now.getTime() + RETRY_AFTER_MS).toISOString() };
  if (read === null) return retry;
  const { rows } = read;
  // An empty answer: today's is a quiet start of the day, and with nothing held yet the store has simply kept nothing
  // (reading it again costs nothing); any other is a store that is not answering. The held count stands; only that waits.
  if (rows.length === 0) return plan.read === 'today' || held.newest_day === null ? held : retry;
  const byDay = mergeVisits(held.by_day, countVisits(rows), plan.since);
  const newest = rows.reduce((max, row) => (row.day > max ? row.day : max), held.newest_day ?? rows[0]!.day);
  return {
    ...held,
    ...visitsTotals(byDay),
    by_day: byDay,
    newest_day: newest,
    counted_at: now.toISOString(),
    full_at: plan.read === 'today' ? held.full_at : now.toISOString(),
    retry_after: null,
    changes_mark: read.mark,
  };
}

/**
 * The recount, run every minute: the visits by people kept in `visits-summary`, read incrementally (see planRead),
 * and the visitors summary reconciled with the records at most once an hour. The only write is a conditional one of
 * the visits summary; another count that wrote first wins, and the next minute counts again. Never throws.
 */
export async function recount(deps: RecountDeps): Promise<RecountOutcome> {
  const now = deps.clock.now();
  let current;
  try {
    current = await deps.visits.read();
  } catch (error) {
    return { ok: false, reason: `the visits summary could not be read (${reasonOf(error)})` };
  }
  const held = current?.doc ?? emptyVisits();
  const read = await readChanged(deps, held, planRead(held, now, deps.lateDays));
  const { plan } = read;
  const counted = afterRead(held, plan, read.answer, now);
  const reconciled = await reconcileIfDue(deps, held, now);
  const next = reconciled === 'agreed' || reconciled === 'healed' ? { ...counted, reconciled_at: now.toISOString() } : counted;
  let wrote = false;
  if (JSON.stringify(next) !== JSON.stringify(held)) {
    try {
      const outcome = current ? await deps.visits.replace(next, current.etag) : await deps.visits.create(next);
      wrote = outcome === 'replaced' || outcome === 'created';
    } catch (error) {
      return { ok: false, reason: `the visits summary could not be written (${reasonOf(error)})` };
    }
  }
  return { ok: true, plan, rows: read.answer?.rows.length ?? 0, visits: (wrote ? next : held).all_time, wrote, reconciled };
}

/** The days written since the last count (first, so a write during the read is seen next time), then the rows. */
async function readChanged(deps: RecountDeps, held: VisitsSummary, planned: ReadPlan): Promise<{ plan: ReadPlan; answer: Read | null }> {
  if (planned.read === 'waiting') return { plan: planned, answer: { rows: [], mark: held.changes_mark ?? 0 } };
  let plan: Reading = planned;
  try {
    const changes = await deps.changes.changedSince(held.changes_mark ?? 0);
    plan = widened(planned, changes.days);
    return { plan, answer: { rows: await deps.activity.visitorDaysSince(plan.since), mark: changes.mark } };
  } catch (error) {
    deps.logger.warn('the recount could not read the activity; the held count stands', { since: plan.since, reason: reasonOf(error) });
    return { plan, answer: null };
  }
}

async function reconcileIfDue(deps: RecountDeps, held: VisitsSummary, now: Date): Promise<ReconcileOutcome | 'not-due' | 'failed'> {
  if (!deps.reconcile || msSince(now, held.reconciled_at) < RECONCILE_EVERY_MS) return 'not-due';
  try {
    return await reconcileVisitors({ ...deps.reconcile, clock: deps.clock });
  } catch (error) {
    deps.logger.warn('the visitors summary could not be reconciled; the next run tries again', { reason: reasonOf(error) });
    return 'failed';
  }
}
