import { createHash } from 'node:crypto';
import { UNKNOWN_COUNTRY } from '../identity/country';
import { reaches } from '../events/events';
import { referrerGroup } from '../identity/referrer-groups';
import { OTHER_PATHS, type VisitorDay } from '../store/activity';
import { entryOf, kindOfDocs, type RollupRules } from './day-rollup';
import { isLoopbackNetwork } from '../identity/network';

export const DIMENSIONS = [
  'page',
  'entry',
  'source',
  'referrer',
  'campaign',
  'country',
  'browser',
  'system',
  'device',
  'goal',
  'event',
] as const;
export type Dimension = (typeof DIMENSIONS)[number];

export interface Filter {
  dimension: Dimension;
  value: string;
  negated: boolean;
}

const keys = (docs: readonly VisitorDay[], field: (doc: VisitorDay) => Record<string, number> | undefined) => {
  const found = new Set<string>();
  for (const doc of docs)
    for (const [name, count] of Object.entries(field(doc) ?? {})) if (count > 0 && name !== OTHER_PATHS) found.add(name);
  return found;
};

/** The dimensions whose values are the names a visitor-day counts under one of its fields. */
const COUNTED = [
  ['referrer', 'sources'],
  ['campaign', 'campaigns'],
  ['browser', 'browsers'],
  ['system', 'systems'],
  ['device', 'devices'],
] as const;

/** `typed` for page loads with no linking host. */
function sourcesOf(docs: readonly VisitorDay[]): Set<string> {
  const groups = new Set<string>();
  let linked = 0;
  for (const doc of docs)
    for (const [host, loads] of Object.entries(doc.sources)) {
      linked += loads;
      if (loads > 0) groups.add(referrerGroup(host));
    }
  if (docs.reduce((sum, doc) => sum + doc.page_loads, 0) > linked) groups.add('typed');
  return groups;
}

/** `anyKind` matches how a day's people count any visitor-day with a person's request. */
export function valuesOf(docs: readonly VisitorDay[], rules: RollupRules, anyKind = false): Map<Dimension, Set<string>> {
  const values = new Map<Dimension, Set<string>>();
  if (docs.every((doc) => isLoopbackNetwork(doc.network)) || (!anyKind && kindOfDocs(docs) !== 'people')) return values;
  const paths = keys(docs, (doc) => doc.paths);
  const events = keys(docs, (doc) => doc.events);
  const entry = entryOf(docs);
  values.set('page', paths);
  values.set('entry', new Set(entry === undefined ? [] : [entry]));
  values.set('source', sourcesOf(docs));
  values.set('country', new Set([docs.find((doc) => doc.country !== undefined)?.country ?? UNKNOWN_COUNTRY]));
  for (const [dimension, field] of COUNTED)
    values.set(
      dimension,
      keys(docs, (doc) => doc[field]),
    );
  const did = { events: [...events], paths: [...paths] };
  values.set('goal', new Set(rules.goals.filter((goal) => reaches(goal, did)).map((goal) => goal.name)));
  values.set('event', events);
  return values;
}

export function matchesAll(docs: readonly VisitorDay[], filters: readonly Filter[], rules: RollupRules, anyKind = false): boolean {
  const values = valuesOf(docs, rules, anyKind);
  if (values.size === 0) return false;
  return filters.every((filter) => values.get(filter.dimension)!.has(filter.value) !== filter.negated);
}

/** The value is hashed since it may be any text. */
export const cellPartition = (dimension: Dimension, value: string) =>
  `cells:${dimension}:${createHash('sha256').update(value).digest('hex').slice(0, 32)}`;

/** The one filter a cell answers: a single filter, not negated. */
export const cellFilter = (filters: readonly Filter[]): Filter | null =>
  filters.length === 1 && !filters[0]!.negated ? filters[0]! : null;
