import { whoOf, stronger, type Who } from '../core/identity/who';
import { boundedMap } from '../core/bounded-map';
import { emptyRollup, holdsToken, moved, type RollupRules } from '../core/rollup/day-rollup';
import { type DayRollup } from '../core/store/rollups';
import type { ActivityDoc, ActivityDocs, ActivityHour, VisitorDay } from '../core/store/activity';
import type { Watermarked, Versioned } from '../core/store/documents';
import type { Fact, VisitorDayPart } from '../core/store/facts';
import type { DayRollups } from '../core/store/rollups';
import { withEngagement, withHour, withVisitorDay } from './add';
import { conditionalWriteOnce, type FoldedChange } from '../core/store/conditional-write';
import { foldDayCells, type PeriodMove } from './periods';
import type { PeriodRollups } from '../core/store/periods';
import { sameJson } from '../core/same-json';

const kindOfRow = (row: VisitorDay): Who => whoOf(row.self > 0, row.requests, row.bots);

/** How many daily tokens one query names, well inside Cosmos DB's limits on a query's size and parameters. */
const TOKENS_A_QUERY = 256;

/** How many of a slice's queries for the documents its facts touch are in flight at once. */
const QUERIES_AT_ONCE = 4;

/** The tokens in lists of at most TOKENS_A_QUERY; one (empty) list when there are none, so the hours are still read. */
const chunks = (tokens: readonly string[]): string[][] =>
  tokens.length === 0
    ? [[]]
    : Array.from({ length: Math.ceil(tokens.length / TOKENS_A_QUERY) }, (_, index) =>
        tokens.slice(index * TOKENS_A_QUERY, (index + 1) * TOKENS_A_QUERY),
      );

/**
 * Marks which rows carry a visit: a daily token is one visitor on its day whichever stores saw it, so of its rows the
 * first by id carries the visit when the token reads as a person across them (the stronger kind of its rows). Loopback
 * is always the site's own read, so its rows never carry one.
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

/** What folding one slice of a day needs: where the activity and the rollups are, and the steps of the path through. */
export interface DaySliceStore {
  activity: ActivityDocs;
  rollups: DayRollups;
  periods: PeriodRollups;
}

/** One slice of a day's facts: the facts with watermarks after the day's watermark and at or before `upTo`. */
export interface DaySlice {
  day: string;
  facts: readonly Watermarked<Fact>[];
  upTo: number;
  /** The day's rollup as read before the slice (null: none yet), and what a new one starts as. */
  rollup: Versioned<DayRollup> | null;
  /** Whether a new rollup of this day must be built from the visitor-days already kept (a day before rollups_from). */
  buildsFromKept: boolean;
  /** Whether the day moves the months and the filter cells (a day on or after periods_from). */
  periods: boolean;
}

/**
 * What a slice leaves to its round, to write in this order: the months and years it moves, then its visitor-days and
 * hours. Its rows are its tokens' visitor-days as the slice leaves them, for the filtered retention cells.
 */
export interface SliceFolded {
  rows: VisitorDay[];
  /** Parts of engagements alone whose token had no visitor-day: dropped, never a new visit. */
  dropped: number;
  moves: PeriodMove[];
  writes: FoldedChange<ActivityDoc>[];
}

/** The documents the slice's facts touch: every visitor-day of their tokens (each store's) and their hours. */
async function touchedBy(activity: ActivityDocs, day: string, facts: readonly Watermarked<Fact>[]): Promise<Versioned<ActivityDoc>[]> {
  const tokens = [...new Set(facts.flatMap((fact) => fact.doc.visitor_days.map((part) => part.token)))];
  const hourIds = [...new Set(facts.flatMap((fact) => fact.doc.hours.map((part) => part.id)))];
  const found: Versioned<ActivityDoc>[] = [];
  await boundedMap(
    chunks(tokens).map((some, index) => ({ some, hours: index === 0 ? hourIds : [] })),
    QUERIES_AT_ONCE,
    async ({ some, hours }) => found.push(...(await activity.touched(day, some, hours))),
  );
  return found;
}

/** Each touched token's visitor-days before and after, for the tokens the slice changed. */
function tokenChanges(before: readonly VisitorDay[], after: readonly VisitorDay[], changedIds: ReadonlySet<string>) {
  const tokens = new Set(after.filter((doc) => changedIds.has(doc.id)).map((doc) => doc.token));
  const of = (docs: readonly VisitorDay[], token: string) => docs.filter((doc) => doc.token === token);
  return [...tokens].map((token) => ({ token, before: of(before, token), after: of(after, token) }));
}

/**
 * Folds one slice of a day's facts into its rollup and its day cells, and answers the visitor-day and hour documents it
 * changes. Every document says up to which watermark it holds facts (`folded_to`), so a fact at or before it is already in
 * it and is skipped. The rollup is written first, moved by the difference each changed daily token makes and marked
 * with the slice's end: a run that dies after it finds the rollup ahead of the day's watermark and folds exactly that slice
 * again (foldDay), so the visitor-days it did not write are written and the rollup, already holding them, is left as
 * it is.
 */
export async function foldActivitySlice(store: DaySliceStore, slice: DaySlice, rules: RollupRules): Promise<SliceFolded> {
  const { day, facts, upTo } = slice;
  const found = await touchedBy(store.activity, day, facts);
  const read = new Map(found.map(({ doc, etag }) => [doc.id, { doc, etag }]));
  const after = new Map<string, ActivityDoc>(found.map(({ doc }) => [doc.id, doc]));
  const heldTo = (id: string) => read.get(id)?.doc.folded_to ?? 0;
  let dropped = 0;
  for (const { doc: fact, watermark } of facts) {
    for (const part of fact.visitor_days) {
      if (part.requests === 0) {
        const joined = joinedBy(after, part);
        if (joined === null) dropped += 1;
        else if (watermark > heldTo(joined.id)) after.set(joined.id, withEngagement(joined, part, upTo));
        continue;
      }
      if (watermark > heldTo(part.id))
        after.set(part.id, withVisitorDay((after.get(part.id) as VisitorDay | undefined) ?? null, part, upTo));
    }
    for (const part of fact.hours) {
      if (watermark > heldTo(part.id)) after.set(part.id, withHour((after.get(part.id) as ActivityHour | undefined) ?? null, part, upTo));
    }
  }
  const rows = markVisits([...after.values()].filter((doc): doc is VisitorDay => doc.kind === 'visitor-day'));
  for (const row of rows) after.set(row.id, row);
  const changes: FoldedChange<ActivityDoc>[] = [...after.values()].map((doc) => ({
    before: read.get(doc.id)?.doc ?? null,
    etag: read.get(doc.id)?.etag ?? null,
    after: doc,
  }));
  const writes = changes.filter((change) => !sameJson(change.before, change.after));
  const moves = await rollUp(store, slice, found, [...after.values()], new Set(writes.map((change) => change.after.id)), rules);
  return { rows, dropped, moves, writes };
}

/** The visitor-day an engagement joins: its own store's, else its token's first by id; null when its token has none. */
function joinedBy(docs: ReadonlyMap<string, ActivityDoc>, part: VisitorDayPart): VisitorDay | null {
  const own = docs.get(part.id);
  if (own?.kind === 'visitor-day') return own;
  const days = [...docs.values()].filter((doc): doc is VisitorDay => doc.kind === 'visitor-day' && doc.token === part.token);
  return days.sort((a, b) => (a.id < b.id ? -1 : 1))[0] ?? null;
}

/**
 * The day's rollup moved by the slice's changed tokens and marked to its end, unless it already holds the slice; then
 * the day cells, each unless it holds the slice. Answers the months and years to move.
 */
async function rollUp(
  store: DaySliceStore,
  slice: DaySlice,
  found: readonly Versioned<ActivityDoc>[],
  after: readonly ActivityDoc[],
  changedIds: ReadonlySet<string>,
  rules: RollupRules,
): Promise<PeriodMove[]> {
  const current = slice.rollup?.doc ?? emptyRollup(slice.day, slice.buildsFromKept ? '' : null);
  const days = (docs: readonly ActivityDoc[]) => docs.filter((doc): doc is VisitorDay => doc.kind === 'visitor-day');
  const held = tokenChanges(days(found.map(({ doc }) => doc)), days(after), changedIds).filter(({ token }) => holdsToken(current, token));
  let day = current;
  if (current.folded_to < slice.upTo) {
    // Totals imported from another tool are set, not added: the latest of the slice stands for the day.
    const imported = slice.facts
      .filter(({ doc }) => doc.imported !== undefined)
      .sort((a, b) => a.watermark - b.watermark || (a.doc.id < b.doc.id ? -1 : 1))
      .pop()?.doc.imported;
    day = { ...moved(current, held, rules), folded_to: slice.upTo, ...(imported === undefined ? {} : { imported }) };
    await conditionalWriteOnce(
      store.rollups,
      { before: slice.rollup?.doc ?? null, etag: slice.rollup?.etag ?? null, after: day },
      `rollup ${slice.day}`,
    );
  }
  if (!slice.periods) return [];
  return foldDayCells(store.periods, { day: slice.day, upTo: slice.upTo, fresh: slice.rollup === null }, held, day, rules);
}
