import { BOT_REASONS, kindOf, leftOutReason, stronger, type BotReason, type BotsByReason, type VisitorKind } from '../identity/kinds';
import { UNKNOWN_COUNTRY } from '../identity/country';
import { isLoopbackNetwork } from '../identity/network';
import { referrerGroup, type ReferrerGroup } from '../identity/referrer-groups';
import { stepKey, type FunnelStep } from '../funnel';
import { reaches, type Goal } from '../events/events';
import type { VisitorDay } from '../store/activity';
import { OTHER_PATHS } from '../store/activity';
import { mergeKept, mergeSketches, type Sketch } from './sketch';
import type { ImportedTotals } from '../store/imports';

/**
 * How many entries a day's rollup keeps of a dimension with no natural bound (pages, entry pages, referrer hosts,
 * campaigns, browsers, systems, countries): the largest, with the rest summed under `(other)`, so a rollup stays well
 * under Cosmos DB's 2 MB item limit (about 60 KB at most, with a dense sketch) and the totals still add up.
 */
export const ROLLUP_TOP = 100;

/** The id of a day's rollup in the day's partition. */
export const DAY_ROLLUP_ID = 'day-rollup';

/** Visitor-days by kind, as the chart counts them. */
export interface Kinds {
  people: number;
  scanners: number;
  self: number;
  total: number;
}

/** People's page loads by where they came from. */
export type SourceGroups = Record<ReferrerGroup, number>;

/**
 * What one UTC day's visitor-days add up to, for everything the Admin tab shows of the day. Every field is a sum over
 * the day's visitor-days (one daily token across every store), so a change of one visitor-day moves the rollup by the
 * difference of what it adds before and after; the people's sketch merges by maximum.
 */
export interface RollupCounts {
  visitor_days: Kinds;
  /** Scanners' visitor-days by the reason they were left out (one kept before reasons is in `scanners` only). */
  left_out: Record<BotReason, number>;
  /** Requests and bot requests of every kind. */
  requests: number;
  bots: number;
  /** People's page loads, and by source group. */
  page_loads: number;
  sources: SourceGroups;
  /** People's page loads and visitor-days by referrer host. */
  referrer_loads: Record<string, number>;
  referrer_people: Record<string, number>;
  /** People's visitor-days that reached each step of the path through, by the step's paths (`/about,/about/`). */
  steps: Record<string, number>;
  /** People's visitor-days by country, browser, system and device type; page loads by campaign. */
  countries: Record<string, number>;
  browsers: Record<string, number>;
  systems: Record<string, number>;
  devices: Record<string, number>;
  campaigns: Record<string, number>;
  /** People's page loads by path, and their visitor-days that requested each path. */
  page_paths: Record<string, number>;
  people_paths: Record<string, number>;
  /** People's visitor-days by the first page they loaded that day. */
  entry_pages: Record<string, number>;
  /** People's events by name, their visitor-days with each, and the events' props by `event|key|value`. */
  events: Record<string, number>;
  event_days: Record<string, number>;
  event_props: Record<string, number>;
  /** People's visitor-days that reached each goal (its conversions). */
  goals: Record<string, number>;
}

/** What the rollups count by that a setting names: the steps of the path through, and the goals. */
export interface RollupRules {
  steps: readonly FunnelStep[];
  goals: readonly Goal[];
}

/**
 * One UTC day's rollup (pk `<yyyy-MM-dd>`, id `day-rollup`), folded by the fold, its only writer. It moves by
 * the deltas of the visitor-days the fold changes, and always equals the day counted again from its visitor-days.
 */
export interface DayRollup extends RollupCounts {
  id: typeof DAY_ROLLUP_ID;
  pk: string;
  kind: 'day-rollup';
  day: string;
  /** Every person with a people's request that day, once (a HyperLogLog sketch). */
  people_sketch: Sketch;
  /** Those of them first counted among people that day (absent on a rollup folded before new people were kept). */
  new_sketch?: Sketch;
  /** Whether some people's visitor-day was kept before visitor-days carried the sketch: the sketch then misses them. */
  sketch_partial: boolean;
  /** Whether the day has any loopback row: all of them are one visitor-day of the site's own. */
  loopback: boolean;
  /**
   * The fold's mark of the last fact whose visitor-days this rollup holds. Written before the visitor-days it changes,
   * so it also says which slice a run that died must finish (see foldDay).
   */
  folded_to: number;
  /**
   * While the timer builds the rollup of a day kept before rollups were: the last daily token added (tokens sort as
   * text), so the fold moves the rollup only for visitor-days already added. Null once the rollup holds the whole day.
   */
  building: string | null;
  /**
   * The day's totals imported from another tool (Plausible's export), set by the fold from the latest such fact of the
   * day: apart from every count above, which only visitor-days make. Absent on a day nothing was imported for.
   */
  imported?: ImportedTotals;
}

/** A day's rollup with nothing in it yet. */
export function emptyRollup(day: string, building: string | null): DayRollup {
  return {
    id: DAY_ROLLUP_ID,
    pk: day,
    kind: 'day-rollup',
    day,
    ...emptyCounts(),
    people_sketch: { sparse: {} },
    sketch_partial: false,
    loopback: false,
    folded_to: 0,
    building,
  };
}

/** Counts with nothing in them. */
export function emptyCounts(): RollupCounts {
  return {
    visitor_days: { people: 0, scanners: 0, self: 0, total: 0 },
    left_out: Object.fromEntries(BOT_REASONS.map((reason) => [reason, 0])) as Record<BotReason, number>,
    requests: 0,
    bots: 0,
    page_loads: 0,
    sources: { linkedin: 0, github: 0, search: 0, other: 0, typed: 0 },
    referrer_loads: {},
    referrer_people: {},
    steps: {},
    countries: {},
    browsers: {},
    systems: {},
    devices: {},
    campaigns: {},
    page_paths: {},
    people_paths: {},
    entry_pages: {},
    events: {},
    event_days: {},
    event_props: {},
    goals: {},
  };
}

const MAPS = [
  'referrer_loads',
  'referrer_people',
  'steps',
  'countries',
  'browsers',
  'systems',
  'devices',
  'campaigns',
  'page_paths',
  'people_paths',
  'entry_pages',
  'events',
  'event_days',
  'event_props',
  'goals',
] as const;

const bump = (counts: Record<string, number>, name: string, by = 1) => {
  counts[name] = (counts[name] ?? 0) + by;
};

const sumOf = (docs: readonly VisitorDay[], field: (doc: VisitorDay) => Record<string, number> | undefined) => {
  const sum: Record<string, number> = {};
  for (const doc of docs) for (const [name, count] of Object.entries(field(doc) ?? {})) bump(sum, name, count);
  return sum;
};

function reasonsOf(docs: readonly VisitorDay[]): BotsByReason | undefined {
  const carried = docs.filter((doc) => doc.bots_by !== undefined);
  return carried.length === 0 ? undefined : sumOf(carried, (doc) => doc.bots_by);
}

/** The kind of one daily token's documents on a day, by the one rule merged across stores. */
export const kindOfDocs = (docs: readonly VisitorDay[]): VisitorKind =>
  docs.map((doc) => kindOf(doc.self > 0, doc.requests, doc.bots)).reduce(stronger);

/** The first page a token's visitor-days loaded that day. */
export const entryOf = (docs: readonly VisitorDay[]) =>
  [...docs].filter((doc) => doc.entry !== undefined).sort((a, b) => (a.first_seen < b.first_seen ? -1 : 1))[0]?.entry;

/** Whether a visitor-day's requests and events reach a step of the path through (a path, or `event:<name>`). */
const reachesStep = (step: FunnelStep, paths: Record<string, number>, events: Record<string, number>) =>
  step.paths.some((path) => ((path.startsWith('event:') ? events[path.slice(6)] : paths[path]) ?? 0) > 0);

/** What a people's visitor-day adds to its events and goals. */
function addEvents(counts: RollupCounts, docs: readonly VisitorDay[], paths: Record<string, number>, goals: readonly Goal[]): void {
  const events = sumOf(docs, (doc) => doc.events);
  for (const [name, count] of Object.entries(events)) {
    bump(counts.events, name, count);
    bump(counts.event_days, name);
  }
  for (const [key, count] of Object.entries(sumOf(docs, (doc) => doc.event_props))) bump(counts.event_props, key, count);
  const did = { events: Object.keys(events), paths: Object.keys(paths) };
  for (const goal of goals) if (reaches(goal, did)) bump(counts.goals, goal.name);
}

/** What a people's visitor-day adds to the dimensions only people are counted in. */
function addPeople(counts: RollupCounts, docs: readonly VisitorDay[], rules: RollupRules): void {
  const hosts = sumOf(docs, (doc) => doc.sources);
  const pageLoads = docs.reduce((sum, doc) => sum + doc.page_loads, 0);
  let linked = 0;
  for (const [host, loads] of Object.entries(hosts)) {
    counts.sources[referrerGroup(host)] += loads;
    linked += loads;
    bump(counts.referrer_loads, host, loads);
    bump(counts.referrer_people, host);
  }
  counts.sources.typed += pageLoads - linked;
  counts.page_loads += pageLoads;
  const paths = sumOf(docs, (doc) => doc.paths);
  const events = sumOf(docs, (doc) => doc.events);
  for (const step of rules.steps) if (reachesStep(step, paths, events)) bump(counts.steps, stepKey(step));
  addEvents(counts, docs, paths, rules.goals);
  bump(counts.countries, docs.find((doc) => doc.country !== undefined)?.country ?? UNKNOWN_COUNTRY);
  for (const field of ['browsers', 'systems', 'devices'] as const)
    for (const name of Object.keys(sumOf(docs, (doc) => doc[field]))) bump(counts[field], name);
  for (const [key, loads] of Object.entries(sumOf(docs, (doc) => doc.campaigns))) bump(counts.campaigns, key, loads);
  for (const [path, loads] of Object.entries(sumOf(docs, (doc) => doc.page_paths))) bump(counts.page_paths, path, loads);
  for (const path of Object.keys(paths)) if (path !== OTHER_PATHS) bump(counts.people_paths, path);
  const entry = entryOf(docs);
  if (entry !== undefined) bump(counts.entry_pages, entry);
}

/**
 * What one daily token's documents on a day (one a store) add to the day's rollup. Loopback rows are the site's own
 * reads and all of a day's are one visitor-day, which the rollup's `loopback` flag counts once: a loopback row adds
 * only its requests.
 */
export function countsOfToken(docs: readonly VisitorDay[], rules: RollupRules): RollupCounts {
  const counts = emptyCounts();
  if (docs.length === 0) return counts;
  counts.requests = docs.reduce((sum, doc) => sum + doc.requests, 0);
  counts.bots = docs.reduce((sum, doc) => sum + doc.bots, 0);
  if (docs.every((doc) => isLoopbackNetwork(doc.network))) return counts;
  const kind = kindOfDocs(docs);
  counts.visitor_days[kind] += 1;
  counts.visitor_days.total += 1;
  if (kind === 'scanners') {
    const reason = leftOutReason(reasonsOf(docs));
    if (reason !== null) counts.left_out[reason] += 1;
  }
  if (kind === 'people') addPeople(counts, docs, rules);
  return counts;
}

/** Counts added, `sign` times: the rollup moved by a visitor-day's before (-1) and after (+1). */
export function addCounts(into: RollupCounts, more: RollupCounts, sign: 1 | -1): void {
  for (const kind of ['people', 'scanners', 'self', 'total'] as const) into.visitor_days[kind] += sign * more.visitor_days[kind];
  for (const reason of BOT_REASONS) into.left_out[reason] += sign * more.left_out[reason];
  into.requests += sign * more.requests;
  into.bots += sign * more.bots;
  into.page_loads += sign * more.page_loads;
  for (const group of Object.keys(into.sources) as ReferrerGroup[]) into.sources[group] += sign * more.sources[group];
  for (const field of MAPS) {
    // A map a rollup written before it was counted lacks is empty.
    for (const [name, count] of Object.entries(more[field] ?? {})) {
      // A name already summed under (other) is taken back from there.
      const target = (into[field] ??= {});
      const at = name in target || sign > 0 ? name : OTHER_PATHS;
      target[at] = (target[at] ?? 0) + sign * count;
      if (target[at] === 0) delete target[at];
    }
  }
}

/** Each unbounded dimension kept to `top` names, largest first, the rest summed under `(other)`. */
export function capped(counts: RollupCounts, top = ROLLUP_TOP): void {
  for (const field of MAPS) {
    const named = Object.entries(counts[field] ?? {}).filter(([name]) => name !== OTHER_PATHS);
    if (named.length <= top) continue;
    named.sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1));
    const other = named.slice(top - 1).reduce((sum, [, count]) => sum + count, counts[field][OTHER_PATHS] ?? 0);
    counts[field] = { ...Object.fromEntries(named.slice(0, top - 1)), [OTHER_PATHS]: other };
  }
}

/** Whether a token's visitor-days are a person's kept before visitor-days carried the sketch: it then misses them. */
export function lacksSketch(after: readonly VisitorDay[]): boolean {
  const outside = after.filter((doc) => !isLoopbackNetwork(doc.network));
  return outside.length > 0 && kindOfDocs(outside) === 'people' && outside.some((doc) => doc.people_sketch === undefined);
}

/** Whether a day's rollup adds a token's visitor-days yet: always once built, else only tokens the build has passed. */
export const holdsToken = (rollup: Pick<DayRollup, 'building'>, token: string) => rollup.building === null || token <= rollup.building;

/**
 * A rollup moved by the change of some daily tokens' documents (each token's documents before and after), as one
 * slice of the fold or one page of a build sees them: their counts taken out and put in again, their people added to
 * the sketch, a first loopback row counted once.
 */
export function moved(
  rollup: DayRollup,
  changes: ReadonlyArray<{ before: readonly VisitorDay[]; after: readonly VisitorDay[] }>,
  rules: RollupRules,
): DayRollup {
  const next: DayRollup = structuredClone(rollup);
  const sketches: Array<Record<string, number>> = [];
  const fresh: Array<Record<string, number>> = [];
  for (const { before, after } of changes) {
    addCounts(next, countsOfToken(before, rules), -1);
    addCounts(next, countsOfToken(after, rules), 1);
    if (lacksSketch(after)) next.sketch_partial = true;
    for (const doc of after) if (doc.people_sketch !== undefined) sketches.push(doc.people_sketch);
    for (const doc of after) if (doc.new_sketch !== undefined) fresh.push(doc.new_sketch);
    if (!next.loopback && after.some((doc) => isLoopbackNetwork(doc.network))) {
      next.loopback = true;
      next.visitor_days.self += 1;
      next.visitor_days.total += 1;
    }
  }
  if (sketches.length > 0) next.people_sketch = mergeSketches(next.people_sketch, ...sketches);
  if (fresh.length > 0) next.new_sketch = mergeKept(next.new_sketch, ...fresh);
  capped(next);
  return next;
}
