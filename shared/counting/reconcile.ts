import type { Clock } from '../ports/clock';
import { utcDay } from '../identity/tokens';
import { HORIZON_SECONDS } from '../keeping/applied';
import { noDelta, plus } from '../keeping/delta';
import type { Receipts } from '../store/receipts';
import type { PendingChange, RecordCensus, VisitorCensus } from '../store/reconcile';
import type { SummaryDelta, VisitorsSummaries, VisitorsSummary } from '../store/summary';
import { VISITORS_SUMMARY_ID } from '../store/summary';
import { VISITORS_PK } from '../store/visitors';
import { addDays } from './days';

/** How many days of new people by day are counted again from the records (the 30-day run and this month, with room). */
export const RECONCILE_DAYS = 35;

/**
 * How long a record's change may wait for its message to reach the summary before it is taken as lost: a queue message
 * is retried within minutes, so a change a day old with no receipt belongs to a message that will not come back.
 */
export const IN_FLIGHT_SECONDS = 86_400;

/** How far back the pending changes are read: a queue message's whole life (7 days), so a lost change is seen and marked. */
export const PENDING_WINDOW_SECONDS = 7 * 86_400;

/** What reconciling needs: the summary (written conditionally, as keep-hits writes it), the census and the receipts. */
export interface ReconcileDeps {
  summary: VisitorsSummaries;
  census: VisitorCensus;
  receipts: Pick<Receipts, 'readMany'>;
  clock: Clock;
}

/** The summary agreed with the records; was healed; or was changing under the census, so it is tried again later. */
export type ReconcileOutcome = 'agreed' | 'healed' | 'busy';

const samePending = (a: readonly PendingChange[], b: readonly PendingChange[]) => {
  const ids = (list: readonly PendingChange[]) => list.map((change) => change.message).sort().join(',');
  return ids(a) === ids(b);
};

/**
 * The summary the records say there should be: the census less the changes still on their way to the summary (a
 * record written, its message not yet applied), with every lost change (no receipt, older than IN_FLIGHT_SECONDS)
 * marked applied so its message, were it ever retried, cannot count it twice. Scanners only ever rise to the records'
 * count: the summary's running number outlives scanner records that expired.
 */
export function expectedSummary(current: VisitorsSummary | null, census: RecordCensus, inFlight: SummaryDelta, lost: readonly string[], since: string, nowSeconds: number): VisitorsSummary {
  const base = current ?? { id: VISITORS_SUMMARY_ID, pk: VISITORS_PK, kind: 'visitors-summary' as const, people_all_time: 0, scanners_left_out: 0, counted_from: null, people_new_by_day: {}, applied: {} };
  const byDay: Record<string, number> = Object.fromEntries(Object.entries(base.people_new_by_day).filter(([day]) => day < since));
  for (const [day, people] of Object.entries(census.new_by_day)) byDay[day] = people - (inFlight.by_day[day] ?? 0);
  const first = census.first_counted_on;
  const uncertain = first === null || (inFlight.counted_from !== null && inFlight.counted_from <= first);
  return {
    ...base,
    people_all_time: census.people - inFlight.people,
    scanners_left_out: Math.max(base.scanners_left_out, census.scanners - inFlight.scanners),
    counted_from: uncertain ? base.counted_from : first,
    people_new_by_day: Object.fromEntries(Object.entries(byDay).filter(([, people]) => people !== 0).sort(([a], [b]) => (a < b ? -1 : 1))),
    applied: { ...base.applied, ...Object.fromEntries(lost.map((id) => [id, nowSeconds])) },
  };
}

const figures = (summary: VisitorsSummary | null) =>
  JSON.stringify(summary && [summary.people_all_time, summary.scanners_left_out, summary.counted_from, Object.entries(summary.people_new_by_day).sort(), Object.keys(summary.applied).sort()]);

/**
 * Heals a lost increment: the visitors summary set to what the visitor records say, by aggregate queries, written with
 * If-Match like every write keep-hits makes. The pending changes are read before and after the census: when any record
 * changed between, the census is not one moment and nothing is written; when the summary changed after it was read,
 * the replace is stale and nothing is written. Either way the next run tries again.
 */
export async function reconcileVisitors(deps: ReconcileDeps): Promise<ReconcileOutcome> {
  const now = deps.clock.now();
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const since = addDays(utcDay(now), 1 - RECONCILE_DAYS);
  const read = await deps.summary.read();
  const before = await deps.census.pendingSince(nowSeconds - PENDING_WINDOW_SECONDS);
  const census = await deps.census.count(since);
  const after = await deps.census.pendingSince(nowSeconds - PENDING_WINDOW_SECONDS);
  if (!samePending(before, after)) return 'busy';
  const current = read?.doc ?? null;
  const unapplied = after.filter((change) => current?.applied[change.message] === undefined);
  const finished = unapplied.length === 0 ? new Map() : await deps.receipts.readMany([...new Set(unapplied.map((change) => change.message))]);
  const open = unapplied.filter((change) => !finished.has(change.message));
  const inFlight = open.filter((change) => change.at > nowSeconds - IN_FLIGHT_SECONDS).reduce((sum, change) => plus(sum, change.delta), noDelta());
  // Past the horizon a message can neither come back nor be told from one applied and pruned: the census has it.
  const lost = [...new Set(open.filter((change) => change.at <= nowSeconds - IN_FLIGHT_SECONDS && change.at > nowSeconds - HORIZON_SECONDS).map((change) => change.message))];
  const expected = expectedSummary(current, census, inFlight, lost, since, nowSeconds);
  if (figures(expected) === figures(current) || (current === null && census.people + census.scanners === 0)) return 'agreed';
  const outcome = read ? await deps.summary.replace(expected, read.etag) : await deps.summary.create(expected);
  return outcome === 'replaced' || outcome === 'created' ? 'healed' : 'busy';
}
