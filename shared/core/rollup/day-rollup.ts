import { BOT_REASONS, whoOf, leftOutReason, stronger, type BotReason, type BotsByReason, type Who } from '../identity/who';
import { UNKNOWN_COUNTRY } from '../identity/country';
import { isLoopbackNetwork } from '../identity/network';
import { referrerGroup, type ReferrerGroup } from '../identity/referrer-groups';
import { funnelStepKey, stepKey, stepsReached, type Funnel, type FunnelStep, type VisitDone } from '../funnel';
import { reaches, type Goal } from '../events/events';
import type { VisitorDay } from '../store/activity';
import { firstInstants, IN_SITE, laterExit, OTHER_PATHS } from '../store/activity';
import { mergeKept, mergeSketches, raiseRegisters } from '../sketch';
import { DAY_ROLLUP_ID, BY_WHO_FIELDS, TIMED_FIGURES, TIMED_MAPS, holdsTime, type DayRollup, type RollupCounts } from '../store/rollups';
import { NAMES, type NamesRollup } from '../dimensions';

/** Unbounded dimensions keep their 100 largest names and sum the rest under `(other)`: about 60 KB, far under Cosmos DB's 2 MB. */
export const ROLLUP_TOP = 100;

/** Set by settings: the funnel's steps and the goals. */
export interface RollupRules {
  steps: readonly FunnelStep[];
  goals: readonly Goal[];
  /** The configuration's funnels; none when absent. */
  funnels?: readonly Funnel[];
}

export function emptyRollup(day: string, building: string | null): DayRollup {
  return {
    id: DAY_ROLLUP_ID,
    pk: day,
    kind: 'day-rollup',
    day,
    ...emptyCounts(),
    people_sketch: { sparse: {} },
    returning_sketch: { sparse: {} },
    sketch_partial: false,
    loopback: false,
    folded_to: 0,
    building,
  };
}

const namesMaps = () => Object.fromEntries(NAMES.map((row) => [row.rollup, {}])) as Record<NamesRollup, Record<string, number>>;

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
    ...namesMaps(),
    campaigns: {},
    page_paths: {},
    people_paths: {},
    entry_pages: {},
    events: {},
    event_days: {},
    event_props: {},
    goals: {},
    engaged_visits: 0,
    engaged_ms: 0,
    span_ms: 0,
    bounces: 0,
    engaged_pages: {},
    page_ms: {},
    page_scroll: {},
    exit_pages: {},
  };
}

const MAPS = [
  'referrer_loads',
  'referrer_people',
  'steps',
  'countries',
  ...NAMES.map((row) => row.rollup),
  'campaigns',
  'page_paths',
  'people_paths',
  'entry_pages',
  'events',
  'event_days',
  'event_props',
  'goals',
  'funnel_steps',
  'funnel_by_set',
  ...TIMED_MAPS,
] as const satisfies ReadonlyArray<keyof RollupCounts>;

/** The counts' own copy, for addCounts to move in place: every field is a number or a flat map, so one level will do. */
export function copyCounts<T extends RollupCounts>(counts: T): T {
  const copy: T = { ...counts, visitor_days: { ...counts.visitor_days }, left_out: { ...counts.left_out }, sources: { ...counts.sources } };
  for (const field of MAPS) if (counts[field] !== undefined) copy[field] = { ...counts[field] };
  return copy;
}

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

/** The one rule, merged across stores. */
export const whoOfDocs = (docs: readonly VisitorDay[]): Who =>
  docs.map((doc) => whoOf(doc.self > 0, doc.requests, doc.bots)).reduce(stronger);

export const entryOf = (docs: readonly VisitorDay[]) =>
  [...docs]
    .filter((doc) => doc.entry !== undefined)
    // By id on a tie, so the entry is the same whatever order the stores' documents come in.
    .sort((a, b) => (a.first_seen === b.first_seen ? (a.id < b.id ? -1 : 1) : a.first_seen < b.first_seen ? -1 : 1))[0]?.entry;

/** A step is a path or `event:<name>`. */
const reachesStep = (step: FunnelStep, paths: Record<string, number>, events: Record<string, number>) =>
  step.paths.some((path) => ((path.startsWith('event:') ? events[path.slice(6)] : paths[path]) ?? 0) > 0);

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

/** The visit's first times across its stores, when every one of them kept them. */
function firstTimesOf(docs: readonly VisitorDay[]): Record<string, string> | undefined {
  if (docs.some((doc) => doc.first_at === undefined && doc.requests > 0)) return undefined;
  const first: Record<string, string> = {};
  for (const doc of docs)
    for (const [key, at] of Object.entries(firstInstants(doc) ?? {})) if (first[key] === undefined || at < first[key]) first[key] = at;
  return first;
}

/** Each funnel's steps reached in order; a visit without first times is counted by set, and its day is kept to say so. */
function addFunnels(counts: RollupCounts, docs: readonly VisitorDay[], did: VisitDone, funnels: readonly Funnel[]): void {
  if (funnels.length === 0) return;
  const firstAt = firstTimesOf(docs);
  if (firstAt === undefined) bump((counts.funnel_by_set ??= {}), docs[0]!.day);
  for (const funnel of funnels)
    for (let k = 1; k <= stepsReached(funnel, { ...did, ...(firstAt === undefined ? {} : { firstAt }) }); k += 1)
      bump((counts.funnel_steps ??= {}), funnelStepKey(funnel.name, k));
}

function addPeople(counts: RollupCounts, docs: readonly VisitorDay[], rules: RollupRules): void {
  const hosts = sumOf(docs, (doc) => doc.sources);
  const pageLoads = docs.reduce((sum, doc) => sum + doc.page_loads, 0);
  let linked = 0;
  for (const [host, loads] of Object.entries(hosts)) {
    linked += loads;
    if (host === IN_SITE) continue;
    counts.sources[referrerGroup(host)] += loads;
    bump(counts.referrer_loads, host, loads);
    bump(counts.referrer_people, host);
  }
  counts.sources.typed += pageLoads - linked;
  counts.page_loads += pageLoads;
  const paths = sumOf(docs, (doc) => doc.paths);
  const events = sumOf(docs, (doc) => doc.events);
  for (const step of rules.steps) if (reachesStep(step, paths, events)) bump(counts.steps, stepKey(step));
  addEvents(counts, docs, paths, rules.goals);
  addFunnels(counts, docs, { events: Object.keys(events), paths: Object.keys(paths) }, rules.funnels ?? []);
  bump(counts.countries, docs.find((doc) => doc.country !== undefined)?.country ?? UNKNOWN_COUNTRY);
  for (const row of NAMES) for (const name of Object.keys(sumOf(docs, (doc) => doc[row.kept]))) bump(counts[row.rollup], name);
  for (const [key, loads] of Object.entries(sumOf(docs, (doc) => doc.campaigns))) bump(counts.campaigns, key, loads);
  for (const [path, loads] of Object.entries(sumOf(docs, (doc) => doc.page_paths))) bump(counts.page_paths, path, loads);
  for (const path of Object.keys(paths)) if (path !== OTHER_PATHS) bump(counts.people_paths, path);
  const entry = entryOf(docs);
  if (entry !== undefined) bump(counts.entry_pages, entry);
  addTime(counts, docs, pageLoads, Object.keys(events).length > 0);
}

/** The visit's last page load across its stores, by instant then path. */
export const exitOf = (docs: readonly VisitorDay[]) =>
  [...docs].filter((doc) => doc.exit_at !== undefined).sort((a, b) => (laterExit(a.exit_at!, a.exit!, b.exit_at!, b.exit!) ? -1 : 1))[0]
    ?.exit;

/** A visit is timed by its engagements, or by its first-to-last request when it sent none. */
function addTime(counts: RollupCounts, docs: readonly VisitorDay[], pageLoads: number, events: boolean): void {
  const engaged = docs.filter((doc) => doc.engaged_ms !== undefined);
  if (engaged.length > 0) {
    counts.engaged_visits! += 1;
    counts.engaged_ms! += engaged.reduce((sum, doc) => sum + doc.engaged_ms!, 0);
  } else {
    const first = docs.reduce((min, doc) => (doc.first_seen < min ? doc.first_seen : min), docs[0]!.first_seen);
    const last = docs.reduce((max, doc) => (doc.last_seen > max ? doc.last_seen : max), docs[0]!.last_seen);
    counts.span_ms! += Date.parse(last) - Date.parse(first);
  }
  if (pageLoads === 1 && !events) counts.bounces! += 1;
  const deepest: Record<string, number> = {};
  for (const doc of docs)
    for (const [path, scroll] of Object.entries(doc.page_scroll ?? {})) deepest[path] = Math.max(deepest[path] ?? 0, scroll);
  for (const [path, ms] of Object.entries(sumOf(docs, (doc) => doc.page_ms))) {
    bump(counts.engaged_pages!, path);
    bump(counts.page_ms!, path, ms);
    bump(counts.page_scroll!, path, deepest[path] ?? 0);
  }
  const exit = exitOf(docs);
  if (exit !== undefined) bump(counts.exit_pages!, exit);
}

/** One daily token's documents, one a store; a loopback row adds only its requests, since `loopback` counts the day once. */
export function countsOfToken(docs: readonly VisitorDay[], rules: RollupRules): RollupCounts {
  const counts = emptyCounts();
  if (docs.length === 0) return counts;
  counts.requests = docs.reduce((sum, doc) => sum + doc.requests, 0);
  counts.bots = docs.reduce((sum, doc) => sum + doc.bots, 0);
  if (docs.every((doc) => isLoopbackNetwork(doc.network))) return counts;
  const kind = whoOfDocs(docs);
  counts.visitor_days[kind] += 1;
  counts.visitor_days.total += 1;
  if (kind === 'scanners') {
    const reason = leftOutReason(reasonsOf(docs));
    if (reason !== null) counts.left_out[reason] += 1;
  }
  if (kind === 'people') addPeople(counts, docs, rules);
  return counts;
}

/** `sign` -1 takes a visitor-day's before out, +1 puts its after in. */
export function addCounts(into: RollupCounts, more: RollupCounts, sign: 1 | -1): void {
  for (const kind of BY_WHO_FIELDS) into.visitor_days[kind] += sign * more.visitor_days[kind];
  for (const reason of BOT_REASONS) into.left_out[reason] += sign * more.left_out[reason];
  into.requests += sign * more.requests;
  into.bots += sign * more.bots;
  into.page_loads += sign * more.page_loads;
  // A rollup folded before time on site was kept stays without it, so it never holds a part of it.
  for (const field of TIMED_FIGURES) if (into[field] !== undefined) into[field] = into[field] + sign * (more[field] ?? 0);
  for (const group of Object.keys(into.sources) as ReferrerGroup[]) into.sources[group] += sign * more.sources[group];
  for (const field of MAPS) {
    if (!holdsTime(into) && (TIMED_MAPS as readonly string[]).includes(field)) continue;
    // A rollup written before a map was counted lacks it.
    for (const [name, count] of Object.entries(more[field] ?? {})) {
      // A name already summed under (other) is taken back from there.
      const target = (into[field] ??= {});
      const at = name in target || sign > 0 ? name : OTHER_PATHS;
      target[at] = (target[at] ?? 0) + sign * count;
      if (target[at] === 0) delete target[at];
    }
  }
}

export function capped(counts: RollupCounts, top = ROLLUP_TOP): void {
  for (const field of MAPS) {
    // A day a key, at most the days a rollup holds.
    if (field === 'page_ms' || field === 'page_scroll' || field === 'funnel_by_set') continue;
    const named = Object.entries(counts[field] ?? {}).filter(([name]) => name !== OTHER_PATHS);
    if (named.length <= top) continue;
    named.sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1));
    const other = named.slice(top - 1).reduce((sum, [, count]) => sum + count, counts[field]?.[OTHER_PATHS] ?? 0);
    counts[field] = { ...Object.fromEntries(named.slice(0, top - 1)), [OTHER_PATHS]: other };
  }
  // A page's engaged ms and scroll go where its engaged visits went, so its row's figures stay of the same visits.
  for (const field of ['page_ms', 'page_scroll'] as const) {
    const kept = counts.engaged_pages;
    const map = counts[field];
    if (kept === undefined || map === undefined || Object.keys(map).every((path) => path in kept)) continue;
    const moved: Record<string, number> = {};
    for (const [path, value] of Object.entries(map)) bump(moved, path in kept ? path : OTHER_PATHS, value);
    counts[field] = moved;
  }
}

/** A person's visitor-days kept before they carried the sketch, which then misses them. */
export function lacksSketch(after: readonly VisitorDay[]): boolean {
  const outside = after.filter((doc) => !isLoopbackNetwork(doc.network));
  return outside.length > 0 && whoOfDocs(outside) === 'people' && outside.some((doc) => doc.people_sketch === undefined);
}

/** A visitor-day's people whose first day is before its day, from its registers by first day. */
export function returningOf(doc: Pick<VisitorDay, 'day' | 'first_days'>): Record<string, number> {
  const registers: Record<string, number> = {};
  for (const [first, some] of Object.entries(doc.first_days ?? {})) if (first < doc.day) raiseRegisters(registers, some);
  return registers;
}

/** The returning registers of every visitor-day that has some. */
export const returningOfDocs = (docs: readonly VisitorDay[]): Array<Record<string, number>> =>
  docs.map(returningOf).filter((registers) => Object.keys(registers).length > 0);

/** Once built, every token; while building, only tokens the build has passed. */
export const holdsToken = (rollup: Pick<DayRollup, 'building'>, token: string) => rollup.building === null || token <= rollup.building;

/** Takes the changed tokens' counts out and puts them in again, adds their people, and counts a first loopback row once. */
export function moved(
  rollup: DayRollup,
  changes: ReadonlyArray<{ before: readonly VisitorDay[]; after: readonly VisitorDay[] }>,
  rules: RollupRules,
): DayRollup {
  const next = copyCounts(rollup);
  const sketches: Array<Record<string, number>> = [];
  const fresh: Array<Record<string, number>> = [];
  const back: Array<Record<string, number>> = [];
  for (const { before, after } of changes) {
    addCounts(next, countsOfToken(before, rules), -1);
    addCounts(next, countsOfToken(after, rules), 1);
    if (lacksSketch(after)) next.sketch_partial = true;
    for (const doc of after) if (doc.people_sketch !== undefined) sketches.push(doc.people_sketch);
    for (const doc of after) if (doc.new_sketch !== undefined) fresh.push(doc.new_sketch);
    back.push(...returningOfDocs(after));
    if (!next.loopback && after.some((doc) => isLoopbackNetwork(doc.network))) {
      next.loopback = true;
      next.visitor_days.self += 1;
      next.visitor_days.total += 1;
    }
  }
  if (sketches.length > 0) next.people_sketch = mergeSketches(next.people_sketch, ...sketches);
  if (fresh.length > 0) next.new_sketch = mergeKept(next.new_sketch, ...fresh);
  // A rollup folded before returning people were kept stays without them, so its day says null rather than a part.
  if (back.length > 0 && next.returning_sketch !== undefined) next.returning_sketch = mergeKept(next.returning_sketch, ...back);
  capped(next);
  return next;
}
