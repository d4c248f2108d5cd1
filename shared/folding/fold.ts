import { addDays, daysEnding } from '../counting/days';
import { errorLine } from '../errors';
import { utcDay } from '../identity/tokens';
import type { Clock } from '../ports/clock';
import type { FoldingStore } from '../store';
import { FOLD_DAYS } from '../store/facts';
import { emptyFoldState, type FoldState } from '../store/fold';
import type { ScanRules } from '../subjects/scan-rule';
import { foldActivity } from './activity';
import { foldPeople } from './people';
import { foldSubjects } from './subjects';
import { foldVisits } from './visits';
import { rewrite } from './write';

// How often the days past the near window are swept for facts a late message left there.
const SWEEP_EVERY_MS = 3_600_000;

/** What the fold needs: the store, the clock, the scan rules, and how late a hit may land (HIT_MAX_AGE_DAYS). */
export interface FoldDeps {
  store: FoldingStore;
  clock: Clock;
  rules: ScanRules;
  lateDays: number;
}

/** What one run did: the mark it folded to, the facts and days it folded, the records it counted again. */
export type FoldOutcome = { ok: true; bound: number; facts: number; days: string[]; records: number } | { ok: false; reason: string };

/**
 * The days whose partitions this run reads: tomorrow (a hit may be five minutes ahead) back through every day a hit
 * may still arrive for, and once an hour every day back to FOLD_DAYS, where only a message kept days late (a replay
 * from poison) can have left a fact.
 */
function daysToRead(today: string, lateDays: number, sweep: boolean): string[] {
  const reach = sweep ? FOLD_DAYS : Math.min(lateDays + 1, FOLD_DAYS);
  return daysEnding(addDays(today, 1), reach + 2);
}

const sweepDue = (state: FoldState, now: Date) => state.swept_at === null || now.getTime() - Date.parse(state.swept_at) >= SWEEP_EVERY_MS;

/** The state after a run: each day read marked to the bound (never back), days past the fold's reach dropped. */
function advanced(state: FoldState, days: readonly string[], bound: number, now: Date, sweptAt: string | null): FoldState {
  const today = utcDay(now);
  const oldest = addDays(today, -FOLD_DAYS - 1);
  const marks = { ...state.days };
  for (const day of days) marks[day] = Math.max(marks[day] ?? 0, bound);
  const kept = Object.entries(marks)
    .filter(([day]) => day >= oldest)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return {
    ...state,
    days: Object.fromEntries(kept),
    records: Math.max(state.records, bound),
    records_at: now.toISOString(),
    swept_at: sweptAt,
  };
}

/**
 * The recount timer's fold, the only writer of everything counted over many visitors. It reads the facts and visitor
 * records written since its last run, up to a mark the store says has settled, and folds them: the facts into the
 * visitor-day and hour documents and the subjects, then the visits of the days that changed and the people of the
 * days whose records changed, each day counted again exactly. The fold state is written last: a run that dies after
 * any write runs again from the same marks, and each document it adds to says how far it holds, so nothing is added
 * twice. Never throws: a run that cannot finish leaves what it wrote, and the next one finishes it.
 */
export async function fold(deps: FoldDeps): Promise<FoldOutcome> {
  const { store } = deps;
  try {
    const bound = await store.marks.settled();
    const read = await store.foldState.read();
    const state = read?.doc ?? emptyFoldState();
    const now = deps.clock.now();
    const today = utcDay(now);
    const sweep = sweepDue(state, now);
    const days = daysToRead(today, deps.lateDays, sweep);
    const facts = await Promise.all(days.map(async (day) => ({ day, facts: await store.facts.on(day, state.days[day] ?? 0, bound) })));
    const withFacts = facts.filter((one) => one.facts.length > 0);
    await Promise.all(withFacts.map((one) => foldActivity(store.activity, one.day, one.facts, bound)));
    const scans = withFacts.flatMap((one) => one.facts.flatMap(({ doc, mark }) => doc.scans.map((scan) => ({ scan, mark }))));
    await foldSubjects(store.subjects, scans, deps.rules, bound);
    // Every day with new facts, not only those this run changed: a run that died after its writes left them done.
    await foldVisits(
      store,
      withFacts.map((one) => one.day),
    );
    const records = await foldPeople(store, { mark: state.records, at: state.records_at }, bound, today);
    // A quiet run moves no mark: the next one reads the same empty range, at the same cost, and a write is saved.
    if (withFacts.length > 0 || records > 0 || sweep) {
      const next = advanced(state, days, bound, now, sweep ? now.toISOString() : state.swept_at);
      await rewrite(store.foldState, { before: read?.doc ?? null, etag: read?.etag ?? null, after: next }, 'fold state');
    }
    return {
      ok: true,
      bound,
      facts: withFacts.reduce((sum, one) => sum + one.facts.length, 0),
      days: withFacts.map((one) => one.day),
      records,
    };
  } catch (error) {
    return { ok: false, reason: errorLine(error) };
  }
}
