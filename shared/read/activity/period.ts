import { pageMatches } from '../../core/events/events';
import { OTHER_PATHS } from '../../core/store/activity';
import { addCounts, emptyCounts, type RollupRules } from '../../core/rollup/day-rollup';
import { type RollupCounts } from '../../core/store/rollups';
import { stepKey } from '../../core/funnel';
import type { Summable } from './window';
import { estimate, mergeSketches, SKETCH_ERROR } from '../../core/sketch';
import { mostFirst } from './audience';
import { pageTime, timedOf, type Timed } from './time-on-site';

/** How many entries the card's lists of pages, entry pages and referrers name. */
export const TOP_SHOWN = 50;

/** An estimate from the days' sketches, `error` relative. */
export interface PeopleInPeriod {
  estimate: number;
  error: number;
  /** False when some day of the period was kept before its visitor-days carried the sketch: a lower bound then. */
  complete: boolean;
}

export interface PeriodCounts extends RollupCounts {
  people: PeopleInPeriod;
  /** Those of them first counted among people within the period (an estimate, within the same error). */
  new_people: number;
  /** Those of them with a day in the period after their first day: the union of its days' returning people. */
  returning: number;
  /** What time on site is counted over: the rollups folded since it was kept. */
  timed: Timed;
}

/** A step newer than a day's rollup counts its most requested path, so the figure is never more than the truth. */
export function periodOf(rollups: Iterable<Summable>, rules: RollupRules): PeriodCounts {
  const parts = [...rollups];
  const sum = emptyCounts();
  const sketches = [];
  const fresh = [];
  const back = [];
  let complete = true;
  for (const rollup of parts) {
    addCounts(sum, rollup, 1);
    sketches.push(rollup.people_sketch);
    fresh.push(rollup.new_sketch);
    back.push(rollup.returning_sketch);
    if (rollup.sketch_partial) complete = false;
    for (const step of rules.steps) {
      const key = stepKey(step);
      if (rollup.steps[key] === undefined) sum.steps[key] = (sum.steps[key] ?? 0) + leastReaching(rollup, step.paths);
    }
    for (const goal of rules.goals) {
      if (rollup.goals?.[goal.name] === undefined)
        sum.goals[goal.name] =
          (sum.goals[goal.name] ?? 0) + leastReaching(rollup, [...goal.paths, ...goal.events.map((event) => `event:${event}`)]);
    }
  }
  return {
    ...sum,
    people: { estimate: estimate(mergeSketches(...sketches)), error: SKETCH_ERROR, complete },
    new_people: estimate(mergeSketches(...fresh)),
    returning: estimate(mergeSketches(...back)),
    timed: timedOf(parts),
  };
}

/** For a step or goal newer than the rollup: its most reached target, never more than the truth. */
function leastReaching(rollup: Summable, targets: readonly string[]): number {
  return Math.max(
    0,
    ...targets.flatMap((target) =>
      target.startsWith('event:')
        ? [rollup.event_days?.[target.slice(6)] ?? 0]
        : Object.entries(rollup.people_paths).flatMap(([path, count]) => (pageMatches(target, path) ? [count] : [])),
    ),
  );
}

const top = <T>(list: T[]) => list.slice(0, TOP_SHOWN);

/** How many values of each prop an event names. */
const PROP_VALUES_SHOWN = 10;

/** People's events, most first: each with its count, its visitor-days and its props' most frequent values. */
export function eventsOf(counts: Pick<RollupCounts, 'events' | 'event_days' | 'event_props'>) {
  return top(
    mostFirst(counts.events, (event, count) => {
      const props: Record<string, Array<{ value: string; count: number }>> = {};
      for (const [key, n] of Object.entries(counts.event_props)) {
        const [name, prop, ...value] = key.split('|');
        if (name !== event || prop === undefined) continue;
        (props[prop] ??= []).push({ value: value.join('|'), count: n });
      }
      for (const prop of Object.keys(props))
        props[prop] = props[prop]!.sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : 1)).slice(0, PROP_VALUES_SHOWN);
      return { event, count, visitor_days: counts.event_days[event] ?? 0, props };
    }).filter((row) => row.event !== OTHER_PATHS),
  );
}

/**
 * The most loaded pages: people's page loads of each path, the people's visitor-days that requested it, and the mean
 * engaged seconds and deepest scroll of the visits that engaged with it.
 */
export function pagesOf(counts: Pick<RollupCounts, 'page_paths' | 'people_paths' | 'engaged_pages' | 'page_ms' | 'page_scroll'>) {
  const paths = new Set([...Object.keys(counts.page_paths), ...Object.keys(counts.people_paths)]);
  paths.delete(OTHER_PATHS);
  const rows = [...paths].map((path) => ({
    path,
    page_loads: counts.page_paths[path] ?? 0,
    people: counts.people_paths[path] ?? 0,
    ...pageTime(counts, path),
  }));
  return top(rows.sort((a, b) => b.page_loads - a.page_loads || b.people - a.people || (a.path < b.path ? -1 : 1)));
}

/** The pages people's visitor-days began on, most first. */
export function entryPagesOf(counts: Pick<RollupCounts, 'entry_pages'>) {
  return top(mostFirst(counts.entry_pages, (path, people) => ({ path, people })).filter((row) => row.path !== OTHER_PATHS));
}

/** The pages people's visitor-days ended on (their last page load), most first. */
export function exitPagesOf(counts: Pick<RollupCounts, 'exit_pages'>) {
  return top(mostFirst(counts.exit_pages ?? {}, (path, people) => ({ path, people })).filter((row) => row.path !== OTHER_PATHS));
}

/** The sites that link here: people's page loads from each host, and their visitor-days. */
export function referrersOf(counts: Pick<RollupCounts, 'referrer_loads' | 'referrer_people'>) {
  return top(
    mostFirst(counts.referrer_loads, (host, pageLoads) => ({
      host,
      page_loads: pageLoads,
      people: counts.referrer_people[host] ?? 0,
    })).filter((row) => row.host !== OTHER_PATHS),
  );
}
