import { kindOf, stronger, type VisitorKind } from '../identity/kinds';
import type { ActivityDoc, ActivityDocs, ActivityHour, VisitorDay } from '../store/activity';
import type { Marked } from '../store/documents';
import type { Fact } from '../store/facts';
import { withHour, withVisitorDay } from './add';
import { rewriteAll, type Rewrite } from './write';

const kindOfRow = (row: VisitorDay): VisitorKind => kindOf(row.self > 0, row.requests, row.bots);

/** How many daily tokens one query names, well inside Cosmos DB's limits on a query's size and parameters. */
const TOKENS_A_QUERY = 256;

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

/**
 * Folds one day's new facts into its visitor-day and hour documents. Every document says up to which mark it holds
 * facts (`folded_to`), so a fact at or before it is already in it and is skipped: a run that died after writing some
 * documents, run again, adds nothing twice.
 */
export async function foldActivity(activity: ActivityDocs, day: string, facts: readonly Marked<Fact>[], bound: number): Promise<void> {
  const tokens = [...new Set(facts.flatMap((fact) => fact.doc.visitor_days.map((part) => part.token)))];
  const hourIds = [...new Set(facts.flatMap((fact) => fact.doc.hours.map((part) => part.id)))];
  const found = (await Promise.all(chunks(tokens).map((some, index) => activity.touched(day, some, index === 0 ? hourIds : [])))).flat();
  const read = new Map(found.map(({ doc, etag }) => [doc.id, { doc, etag }]));
  const after = new Map<string, ActivityDoc>(found.map(({ doc }) => [doc.id, doc]));
  const heldTo = (id: string) => read.get(id)?.doc.folded_to ?? 0;
  for (const { doc: fact, mark } of facts) {
    for (const part of fact.visitor_days) {
      if (mark > heldTo(part.id)) after.set(part.id, withVisitorDay((after.get(part.id) as VisitorDay | undefined) ?? null, part, bound));
    }
    for (const part of fact.hours) {
      if (mark > heldTo(part.id)) after.set(part.id, withHour((after.get(part.id) as ActivityHour | undefined) ?? null, part, bound));
    }
  }
  for (const row of markVisits([...after.values()].filter((doc): doc is VisitorDay => doc.kind === 'visitor-day'))) after.set(row.id, row);
  const changes: Rewrite<ActivityDoc>[] = [...after.values()].map((doc) => ({
    before: read.get(doc.id)?.doc ?? null,
    etag: read.get(doc.id)?.etag ?? null,
    after: doc,
  }));
  const changed = changes.filter((change) => JSON.stringify(change.before) !== JSON.stringify(change.after));
  await rewriteAll(activity, changed, (change) => `activity ${day} ${change.after.id}`);
}
