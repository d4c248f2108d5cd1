import { kindOf, stronger, type VisitorKind } from '../core/identity/kinds';
import { inLanes } from '../core/lanes';
import { emptyRollup, holdsToken, moved, type DayRollup, type RollupRules } from '../core/rollup/day-rollup';
import type { ActivityDoc, ActivityDocs, ActivityHour, VisitorDay } from '../core/store/activity';
import type { Marked, Versioned } from '../core/store/documents';
import type { Fact } from '../core/store/facts';
import type { DayRollups } from '../core/store/rollups';
import { withHour, withVisitorDay } from './add';
import { conditionalWriteOnce, type FoldedChange } from '../core/store/conditional-write';
import { conditionalWritesOnce } from './write';
import { foldPeriods } from './periods';
import type { PeriodRollups } from '../core/store/periods';
import type { InTurn } from '../core/in-turn';

const kindOfRow = (row: VisitorDay): VisitorKind => kindOf(row.self > 0, row.requests, row.bots);

/** Well inside Cosmos DB's limits on a query's size and parameters. */
const TOKENS_A_QUERY = 256;

const QUERIES_AT_ONCE = 4;

/** One empty list when there are no tokens, so the hours are still read. */
const chunks = (tokens: readonly string[]): string[][] =>
  tokens.length === 0
    ? [[]]
    : Array.from({ length: Math.ceil(tokens.length / TOKENS_A_QUERY) }, (_, index) =>
        tokens.slice(index * TOKENS_A_QUERY, (index + 1) * TOKENS_A_QUERY),
      );

/**
 * A daily token is one visitor on its day whichever stores saw it, so only its first row by id carries the visit.
 * Loopback is the site's own read and never carries one.
 */
function markVisits(rows: VisitorDay[]): VisitorDay[] {
  const byToken = new Map<string, VisitorDay[]>();
  for (const row of rows) byToken.set(row.token, [...(byToken.get(row.token) ?? []), row]);
  return [...byToken.values()].flatMap((group) => {
    const sorted = group.sort((a, b) => (a.id < b.id ? -1 : 1));
    const person = sorted.map(kindOfRow).reduce(stronger) === 'people';
    return sorted.map((row, index) => ({ ...row, visit: person && index === 0 }));
  });
}

export interface DaySliceStore {
  activity: ActivityDocs;
  rollups: DayRollups;
  periods: PeriodRollups;
}

/** Facts with marks after the day's mark and at or before `upTo`. */
export interface DaySlice {
  day: string;
  facts: readonly Marked<Fact>[];
  upTo: number;
  /** Null when the day has no rollup yet. */
  rollup: Versioned<DayRollup> | null;
  /** A day before rollups_from builds a new rollup from the visitor-days already kept. */
  buildsFromKept: boolean;
  /** Null unless the day is on or after periods_from. */
  periods: InTurn | null;
}

/** Every store's visitor-days of the facts' tokens, and their hours. */
async function touchedBy(activity: ActivityDocs, day: string, facts: readonly Marked<Fact>[]): Promise<Versioned<ActivityDoc>[]> {
  const tokens = [...new Set(facts.flatMap((fact) => fact.doc.visitor_days.map((part) => part.token)))];
  const hourIds = [...new Set(facts.flatMap((fact) => fact.doc.hours.map((part) => part.id)))];
  const found: Versioned<ActivityDoc>[] = [];
  await inLanes(
    chunks(tokens).map((some, index) => ({ some, hours: index === 0 ? hourIds : [] })),
    QUERIES_AT_ONCE,
    async ({ some, hours }) => found.push(...(await activity.touched(day, some, hours))),
  );
  return found;
}

function tokenChanges(before: readonly VisitorDay[], after: readonly VisitorDay[], changedIds: ReadonlySet<string>) {
  const tokens = new Set(after.filter((doc) => changedIds.has(doc.id)).map((doc) => doc.token));
  const of = (docs: readonly VisitorDay[], token: string) => docs.filter((doc) => doc.token === token);
  return [...tokens].map((token) => ({ token, before: of(before, token), after: of(after, token) }));
}

/**
 * Each document's `folded_to` says which facts it holds, so a fact at or before it is skipped.
 * The rollup is written first, so a run that dies after it refolds exactly that slice and the rollup stays as it is.
 */
export async function foldActivitySlice(store: DaySliceStore, slice: DaySlice, rules: RollupRules): Promise<void> {
  const { day, facts, upTo } = slice;
  const found = await touchedBy(store.activity, day, facts);
  const read = new Map(found.map(({ doc, etag }) => [doc.id, { doc, etag }]));
  const after = new Map<string, ActivityDoc>(found.map(({ doc }) => [doc.id, doc]));
  const heldTo = (id: string) => read.get(id)?.doc.folded_to ?? 0;
  for (const { doc: fact, mark } of facts) {
    for (const part of fact.visitor_days) {
      if (mark > heldTo(part.id)) after.set(part.id, withVisitorDay((after.get(part.id) as VisitorDay | undefined) ?? null, part, upTo));
    }
    for (const part of fact.hours) {
      if (mark > heldTo(part.id)) after.set(part.id, withHour((after.get(part.id) as ActivityHour | undefined) ?? null, part, upTo));
    }
  }
  for (const row of markVisits([...after.values()].filter((doc): doc is VisitorDay => doc.kind === 'visitor-day'))) after.set(row.id, row);
  const changes: FoldedChange<ActivityDoc>[] = [...after.values()].map((doc) => ({
    before: read.get(doc.id)?.doc ?? null,
    etag: read.get(doc.id)?.etag ?? null,
    after: doc,
  }));
  const changed = changes.filter((change) => JSON.stringify(change.before) !== JSON.stringify(change.after));
  await rollUp(store, slice, found, [...after.values()], new Set(changed.map((change) => change.after.id)), rules);
  await conditionalWritesOnce(store.activity, changed, (change) => `activity ${day} ${change.after.id}`);
}

/** Each rollup is moved unless it already holds the slice: the day's first, then the month's and the filter cells. */
async function rollUp(
  store: DaySliceStore,
  slice: DaySlice,
  found: readonly Versioned<ActivityDoc>[],
  after: readonly ActivityDoc[],
  changedIds: ReadonlySet<string>,
  rules: RollupRules,
): Promise<void> {
  const current = slice.rollup?.doc ?? emptyRollup(slice.day, slice.buildsFromKept ? '' : null);
  const days = (docs: readonly ActivityDoc[]) => docs.filter((doc): doc is VisitorDay => doc.kind === 'visitor-day');
  const held = tokenChanges(days(found.map(({ doc }) => doc)), days(after), changedIds).filter(({ token }) => holdsToken(current, token));
  let day = current;
  if (current.folded_to < slice.upTo) {
    // Imported totals are set, not added: the slice's latest stands for the day.
    const imported = slice.facts
      .filter(({ doc }) => doc.imported !== undefined)
      .sort((a, b) => a.mark - b.mark || (a.doc.id < b.doc.id ? -1 : 1))
      .pop()?.doc.imported;
    day = { ...moved(current, held, rules), folded_to: slice.upTo, ...(imported === undefined ? {} : { imported }) };
    await conditionalWriteOnce(
      store.rollups,
      { before: slice.rollup?.doc ?? null, etag: slice.rollup?.etag ?? null, after: day },
      `rollup ${slice.day}`,
    );
  }
  if (slice.periods !== null) await foldPeriods({ periods: store.periods, turns: slice.periods }, slice, held, day, rules);
}
