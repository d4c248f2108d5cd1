import { createHash } from 'node:crypto';
import { UNKNOWN_COUNTRY } from '../identity/country';
import { reaches } from '../events/events';
import { referrerGroup } from '../identity/referrer-groups';
import { IN_SITE, OTHER_PATHS, type VisitorDay } from '../store/activity';
import { entryOf, exitOf, whoOfDocs, type RollupRules } from './day-rollup';
import { isLoopbackNetwork } from '../identity/network';
import { CELL_DIMENSIONS, DIMENSION_TABLE, type Dimension, type Filter } from '../dimensions';

export type { Filter } from '../dimensions';

const keys = (docs: readonly VisitorDay[], field: (doc: VisitorDay) => Record<string, number> | undefined) => {
  const found = new Set<string>();
  for (const doc of docs)
    for (const [name, count] of Object.entries(field(doc) ?? {}))
      if (count > 0 && name !== OTHER_PATHS && name !== IN_SITE) found.add(name);
  return found;
};

/** `typed` for page loads with no linking host. */
function sourcesOf(docs: readonly VisitorDay[]): Set<string> {
  const groups = new Set<string>();
  let linked = 0;
  for (const doc of docs)
    for (const [host, loads] of Object.entries(doc.sources)) {
      linked += loads;
      if (loads > 0 && host !== IN_SITE) groups.add(referrerGroup(host));
    }
  if (docs.reduce((sum, doc) => sum + doc.page_loads, 0) > linked) groups.add('typed');
  return groups;
}

/** A visitor-day's fields that count names. */
type CountedField = { [K in keyof VisitorDay]-?: NonNullable<VisitorDay[K]> extends Record<string, number> ? K : never }[keyof VisitorDay];

type Rule = (docs: readonly VisitorDay[], rules: RollupRules) => Set<string>;

/** The dimensions with a rule of their own; every other one's values are the names its kept field counts. */
const OWN_RULES = {
  entry: (docs) => {
    const entry = entryOf(docs);
    return new Set(entry === undefined ? [] : [entry]);
  },
  exit: (docs) => {
    const exit = exitOf(docs);
    return new Set(exit === undefined ? [] : [exit]);
  },
  source: sourcesOf,
  country: (docs) => new Set([docs.find((doc) => doc.country !== undefined)?.country ?? UNKNOWN_COUNTRY]),
  goal: (docs, rules) => {
    const did = { events: [...keys(docs, (doc) => doc.events)], paths: [...keys(docs, (doc) => doc.paths)] };
    return new Set(rules.goals.filter((goal) => reaches(goal, did)).map((goal) => goal.name));
  },
} satisfies Partial<Record<Dimension, Rule>>;

type Row = (typeof DIMENSION_TABLE)[number];
/** The rows read from their kept field, which must count names: a row whose field does not fails to compile below. */
type KeptRow = Exclude<Row, { filter: keyof typeof OWN_RULES }>;

const ruleOf = (row: Row): Rule =>
  row.filter in OWN_RULES
    ? OWN_RULES[row.filter as keyof typeof OWN_RULES]
    : (docs) => keys(docs, (doc) => doc[(row as KeptRow).kept satisfies CountedField]);

/** `anyKind` matches how a day's people count any visitor-day with a person's request. */
export function valuesOf(docs: readonly VisitorDay[], rules: RollupRules, anyKind = false): Map<Dimension, Set<string>> {
  const values = new Map<Dimension, Set<string>>();
  if (docs.every((doc) => isLoopbackNetwork(doc.network)) || (!anyKind && whoOfDocs(docs) !== 'people')) return values;
  for (const row of DIMENSION_TABLE) values.set(row.filter, ruleOf(row)(docs, rules));
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
  filters.length === 1 && !filters[0]!.negated && CELL_DIMENSIONS.includes(filters[0]!.dimension) ? filters[0]! : null;
