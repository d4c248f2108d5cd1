import { z } from 'zod';
import { addDays } from '../../core/days';
import type { Goal } from '../../core/events/events';
import { countsOfToken } from '../../core/rollup/day-rollup';
import { LONG_SPANS, periodKey } from '../../core/rollup/periods';
import { byToken } from '../build';
import { conditionalWriteOnce } from '../../core/store/conditional-write';
import type { PeriodRollups } from '../../core/store/periods';
import type { DayRollups, VisitorDayPages } from '../../core/store/rollups';
import type { Migration } from './runner';

/** Visitor-days read at once: a day is counted a page at a time, so memory holds one page whatever the day's visitors. */
const PAGE = 500;

export interface GoalBackDeps {
  rollups: DayRollups;
  periods: PeriodRollups;
  pages: VisitorDayPages;
  /** The first day a visitor-day can be kept on; null when none is. */
  firstDay: () => Promise<string | null>;
  today: string;
}

/** The next day to count, newest first. */
const placeSchema = z.strictObject({ day: z.string() });

function dayOf(position: string | null, today: string, name: string): string {
  if (position === null) return today;
  const parsed = placeSchema.safeParse(JSON.parse(position));
  if (!parsed.success) throw new Error(`the ${name} migration holds a position it did not write`);
  return parsed.data.day;
}

/** The day's people's visitor-days that reach the goal, a page at a time, each token's rows counted together. */
async function conversionsOn(pages: VisitorDayPages, day: string, goal: Goal): Promise<number> {
  const rules = { steps: [], goals: [goal] };
  let count = 0;
  let after = '';
  for (;;) {
    const page = await pages.byToken(day, after, PAGE);
    const tokens = byToken(page);
    const full = page.length >= PAGE;
    // The last token's rows may go on in the next page, unless it is the page's only token (a token has a row a store).
    if (full && tokens.size > 1) tokens.delete(page[page.length - 1]!.token);
    for (const rows of tokens.values()) count += countsOfToken(rows, rules).goals[goal.name] ?? 0;
    if (!full) return count;
    after = [...tokens.keys()].pop()!;
  }
}

/** The day's rollup set to the recount, with what it added kept beside it; the same slice again finds it set. */
async function setDay(deps: GoalBackDeps, name: string, goal: Goal, day: string, slice: number): Promise<number | null> {
  const read = await deps.rollups.read(day);
  if (read === null) return null;
  const done = read.doc.goals_back?.[name];
  if (done !== undefined && done.slice === slice) return done.delta;
  const count = await conversionsOn(deps.pages, day, goal);
  const delta = count - (read.doc.goals?.[goal.name] ?? 0);
  const goals = { ...read.doc.goals, [goal.name]: count };
  const after = { ...read.doc, goals, goals_back: { ...read.doc.goals_back, [name]: { slice, delta } } };
  await conditionalWriteOnce(deps.rollups, { before: read.doc, etag: read.etag, after }, `rollup ${day}`);
  return delta;
}

/** The day's month and year take its difference once each, by the slice that made it. */
async function addToPeriods(periods: PeriodRollups, name: string, goal: Goal, day: string, slice: number, delta: number): Promise<void> {
  for (const span of LONG_SPANS) {
    const { pk, id } = periodKey(span, day, null);
    const read = await periods.read(pk, id);
    if (read === null || (read.doc.goals_back?.[name] ?? 0) >= slice) continue;
    const goals = { ...read.doc.goals, [goal.name]: (read.doc.goals?.[goal.name] ?? 0) + delta };
    const after = { ...read.doc, goals, goals_back: { ...read.doc.goals_back, [name]: slice } };
    await conditionalWriteOnce(periods, { before: read.doc, etag: read.etag, after }, `period ${pk} ${id}`);
  }
}

/**
 * A goal added after its days were folded is counted again over every day whose visitor-days are kept, a day a
 * slice, newest first: each day's rollup is set to its recount and its month and year take the difference. It runs
 * under the fold lease after the run's days are folded, so the fold's deltas from then on start from the recount.
 */
export function goalBackMigration(goal: Goal & { back: string }, deps: GoalBackDeps): Migration {
  const name = goal.back;
  return {
    name,
    async slice({ position, number }) {
      const floor = await deps.firstDay();
      const day = dayOf(position, deps.today, name);
      if (floor === null || day < floor) return null;
      const delta = await setDay(deps, name, goal, day, number);
      if (delta !== null && delta !== 0) await addToPeriods(deps.periods, name, goal, day, number, delta);
      const next = addDays(day, -1);
      return next < floor ? null : JSON.stringify({ day: next });
    },
  };
}
