import { z } from 'zod';
import { addDays } from '../../core/days';
import type { Goal } from '../../core/events/events';
import { funnelStepKey, type Funnel } from '../../core/funnel';
import { countsOfToken, type RollupRules } from '../../core/rollup/day-rollup';
import { LONG_SPANS, periodKey } from '../../core/rollup/periods';
import { byToken } from '../build';
import { conditionalWriteOnce } from '../../core/store/conditional-write';
import type { PeriodRollups } from '../../core/store/periods';
import type { DayRollups, RollupCounts, VisitorDayPages } from '../../core/store/rollups';
import type { Migration } from './runner';
import type { DayFiles } from '../../core/store/day-files';
import { tokenPages } from '../../core/rollup/token-pages';

/** Visitor-days read at once: a day is counted a page at a time, so memory holds one page whatever the day's visitors. */
const PAGE = 500;

export interface GoalBackDeps {
  rollups: DayRollups;
  periods: PeriodRollups;
  pages: VisitorDayPages;
  /** The first day a visitor-day can be kept on; null when none is. */
  firstDay: () => Promise<string | null>;
  today: string;
  /** A closed day's file is written again under every goal and funnel, so several filters read the one counted back. */
  files?: { dayFiles: DayFiles | null; rules: RollupRules };
}

/** What is counted back: the rollups' map it is kept in, its keys there, and the rules that count them. */
interface Counted {
  name: string;
  field: 'goals' | 'funnel_steps';
  keys: string[];
  rules: RollupRules;
}

/** A funnel's recount also sets the day's visits counted by set, under a key no step has. */
const BY_SET = '|by-set';

const goalCounted = (goal: Goal & { back: string }): Counted => ({
  name: goal.back,
  field: 'goals',
  keys: [goal.name],
  rules: { steps: [], goals: [goal] },
});

const funnelCounted = (funnel: Funnel & { back: string }): Counted => ({
  name: funnel.back,
  field: 'funnel_steps',
  keys: funnel.steps.map((_, at) => funnelStepKey(funnel.name, at + 1)),
  rules: { steps: [], goals: [], funnels: [funnel] },
});

/** The next day to count, newest first. */
const placeSchema = z.strictObject({ day: z.string() });

function dayOf(position: string | null, today: string, name: string): string {
  if (position === null) return today;
  const parsed = placeSchema.safeParse(JSON.parse(position));
  if (!parsed.success) throw new Error(`the ${name} migration holds a position it did not write`);
  return parsed.data.day;
}

/** The day's people's visitor-days counted under the rules, a page at a time, each token's rows together. */
async function recount(pages: VisitorDayPages, day: string, counted: Counted): Promise<Record<string, number>> {
  const sums = Object.fromEntries(counted.keys.map((key) => [key, 0]));
  let after = '';
  for (;;) {
    const page = await pages.byToken(day, after, PAGE);
    const tokens = byToken(page);
    const full = page.length >= PAGE;
    // The last token's rows may go on in the next page, unless it is the page's only token (a token has a row a store).
    if (full && tokens.size > 1) tokens.delete(page[page.length - 1]!.token);
    for (const rows of tokens.values()) {
      const all = countsOfToken(rows, counted.rules);
      const counts = all[counted.field] ?? {};
      for (const key of counted.keys) sums[key]! += counts[key] ?? 0;
      if (counted.field === 'funnel_steps') sums[BY_SET] = (sums[BY_SET] ?? 0) + (all.funnel_by_set?.[day] ?? 0);
    }
    if (!full) return sums;
    after = [...tokens.keys()].pop()!;
  }
}

const differs = (delta: Record<string, number>) => Object.values(delta).some((n) => n !== 0);

/** Adds `delta` to a copy of the counts' map. */
const moved = (map: Record<string, number> | undefined, delta: Record<string, number>) => {
  const next = { ...map };
  for (const [key, n] of Object.entries(delta)) next[key] = (next[key] ?? 0) + n;
  return next;
};

/** The counts' maps with the day's difference added: its keys, and a funnel's visits counted by set on the day. */
function withDelta(counts: RollupCounts, counted: Counted, day: string, delta: Record<string, number>): Partial<RollupCounts> {
  const { [BY_SET]: bySet, ...keys } = delta;
  const field = { [counted.field]: moved(counts[counted.field], keys) };
  if (bySet === undefined) return field;
  const days = moved(counts.funnel_by_set, { [day]: bySet });
  if (days[day] === 0) delete days[day];
  return { ...field, funnel_by_set: days };
}

/** The day's rollup set to the recount, with what it added kept beside it; the same slice again finds it set. */
async function setDay(deps: GoalBackDeps, counted: Counted, day: string, slice: number): Promise<Record<string, number> | null> {
  const read = await deps.rollups.read(day);
  if (read === null) return null;
  const done = read.doc.goals_back?.[counted.name];
  if (done !== undefined && done.slice === slice) return done.delta;
  const sums = await recount(deps.pages, day, counted);
  const kept: Record<string, number> = { ...read.doc[counted.field], [BY_SET]: read.doc.funnel_by_set?.[day] ?? 0 };
  const delta = Object.fromEntries(Object.entries(sums).map(([key, sum]) => [key, sum - (kept[key] ?? 0)]));
  const after = {
    ...read.doc,
    ...withDelta(read.doc, counted, day, delta),
    goals_back: { ...read.doc.goals_back, [counted.name]: { slice, delta } },
  };
  await conditionalWriteOnce(deps.rollups, { before: read.doc, etag: read.etag, after }, `rollup ${day}`);
  return delta;
}

/** The day's month and year take its difference once each, by the slice that made it. */
async function addToPeriods(periods: PeriodRollups, counted: Counted, day: string, slice: number, delta: Record<string, number>) {
  for (const span of LONG_SPANS) {
    const { pk, id } = periodKey(span, day, null);
    const read = await periods.read(pk, id);
    if (read === null || (read.doc.goals_back?.[counted.name] ?? 0) >= slice) continue;
    const after = {
      ...read.doc,
      ...withDelta(read.doc, counted, day, delta),
      goals_back: { ...read.doc.goals_back, [counted.name]: slice },
    };
    await conditionalWriteOnce(periods, { before: read.doc, etag: read.etag, after }, `period ${pk} ${id}`);
  }
}

/** Written again whole, so a slice run again writes the same file. */
async function rewriteFile(deps: GoalBackDeps, day: string): Promise<void> {
  const files = deps.files?.dayFiles;
  if (files === null || files === undefined || day >= deps.today || !(await files.written([day])).has(day)) return;
  await files.write(day, tokenPages(deps.pages, day, deps.files!.rules));
}

/**
 * A goal or funnel added after its days were folded is counted again over every day whose visitor-days are kept, a
 * day a slice, newest first: each day's rollup is set to its recount and its month and year take the difference. It
 * runs under the fold lease after the run's days are folded, so the fold's deltas from then on start from the recount.
 */
function countedBack(counted: Counted, deps: GoalBackDeps): Migration {
  return {
    name: counted.name,
    async slice({ position, number }) {
      const floor = await deps.firstDay();
      const day = dayOf(position, deps.today, counted.name);
      if (floor === null || day < floor) return null;
      const delta = await setDay(deps, counted, day, number);
      if (delta !== null && differs(delta)) await addToPeriods(deps.periods, counted, day, number, delta);
      await rewriteFile(deps, day);
      const next = addDays(day, -1);
      return next < floor ? null : JSON.stringify({ day: next });
    },
  };
}

export const goalBackMigration = (goal: Goal & { back: string }, deps: GoalBackDeps) => countedBack(goalCounted(goal), deps);

export const funnelBackMigration = (funnel: Funnel & { back: string }, deps: GoalBackDeps) => countedBack(funnelCounted(funnel), deps);
