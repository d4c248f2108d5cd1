import type { VisitorDay } from '../store/activity';
import type { RollupCounts } from '../store/rollups';
import { isLoopbackNetwork } from '../identity/network';
import { DIMENSIONS } from '../dimensions';
import { raiseRegisters } from '../sketch';
import { valuesOf, type Filter } from './filters';
import type { CountEntry, Registers, TokenRow } from '../store/day-files';
import { countsOfToken, emptyCounts, lacksSketch, returningOfDocs, whoOfDocs, type RollupRules } from './day-rollup';

/** Every dimension is a column of values; a goal's are those of GOALS when the file was written. */
export const COLUMNS = DIMENSIONS;

export type { CountEntry, Registers, TokenRow } from '../store/day-files';

/** Every field of RollupCounts is a number or a flat map of numbers, so counts flatten to entries and back. */
export function entriesOf(counts: RollupCounts): CountEntry[] {
  return Object.entries(counts).flatMap(([field, value]): CountEntry[] =>
    typeof value === 'number'
      ? value === 0
        ? []
        : [{ field, key: '', count: value }]
      : Object.entries(value as Record<string, number>)
          .filter(([, count]) => count !== 0)
          .map(([key, count]) => ({ field, key, count })),
  );
}

/** Maps a rollup holds only once one is counted, so empty counts lack them. */
const LATER_MAPS: ReadonlySet<string> = new Set(['funnel_steps', 'funnel_by_set'] satisfies Array<keyof RollupCounts>);

/** Entries summed into counts; a field a newer file has and this code lacks is left out. */
export function countsOfEntries(entries: Iterable<CountEntry>): RollupCounts {
  const counts = emptyCounts() as unknown as Record<string, number | Record<string, number>>;
  for (const { field, key, count } of entries) {
    const at = counts[field] ?? (LATER_MAPS.has(field) ? (counts[field] = {}) : undefined);
    if (at === undefined) continue;
    if (typeof at === 'number') counts[field] = at + count;
    else at[key] = (at[key] ?? 0) + count;
  }
  return counts as unknown as RollupCounts;
}

const registersOf = (sketches: ReadonlyArray<Record<string, number> | undefined>): Registers =>
  Object.entries(sketches.reduce<Record<string, number>>((into, more) => raiseRegisters(into, more ?? {}), {})).map(([register, rank]) => [
    Number(register),
    rank,
  ]);

function firstsOf(docs: readonly VisitorDay[]): TokenRow['firsts'] {
  const byFirst = new Map<string, Array<Record<string, number>>>();
  for (const doc of docs)
    for (const [first, some] of Object.entries(doc.first_days ?? {})) byFirst.set(first, [...(byFirst.get(first) ?? []), some]);
  return [...byFirst].flatMap(([first, some]) =>
    registersOf(some).map(([register, rank]): [string, number, number] => [first, register, rank]),
  );
}

export function tokenRow(docs: readonly VisitorDay[], rules: RollupRules): TokenRow {
  const loopback = docs.every((doc) => isLoopbackNetwork(doc.network));
  const who = loopback ? null : whoOfDocs(docs);
  const found = valuesOf(docs, rules, true);
  return {
    day: docs[0]!.day,
    token: docs[0]!.token,
    who,
    values: Object.fromEntries(COLUMNS.map((column) => [column, [...(found.get(column) ?? [])].sort()])) as TokenRow['values'],
    counts: who === 'people' ? entriesOf(countsOfToken(docs, rules)) : [],
    people: registersOf(docs.map((doc) => doc.people_sketch)),
    fresh: registersOf(docs.map((doc) => doc.new_sketch)),
    back: registersOf(returningOfDocs(docs)),
    firsts: firstsOf(docs),
    partial: lacksSketch(docs),
  };
}

export type { Filter };
