import { emptyRollup, moved, type RollupRules } from '../core/rollup/day-rollup';
import type { VisitorDay } from '../core/store/activity';
import type { DayRollups, VisitorDayPages } from '../core/store/rollups';
import { conditionalWriteOnce } from '../core/store/conditional-write';

/** What building a day's rollup from the visitor-days already kept needs. */
export interface BuildStore {
  rollups: DayRollups;
  pages: VisitorDayPages;
}

/** Rows grouped by their daily token, in the order met. */
export function byToken(rows: readonly VisitorDay[]): Map<string, VisitorDay[]> {
  const tokens = new Map<string, VisitorDay[]>();
  for (const row of rows) tokens.set(row.token, [...(tokens.get(row.token) ?? []), row]);
  return tokens;
}

/**
 * Adds one page of a day's kept visitor-days, in the order of their daily tokens, to the day's rollup, and watermarks how
 * far it got (`building`): the fold moves the rollup only for tokens already added, and the build adds each later
 * token as it is then, so every visitor-day is in the rollup once. A full page leaves out its last token, whose rows
 * may go on in the next page. Answers whether the day's rollup is whole now.
 */
export async function buildRollupPage(store: BuildStore, day: string, rules: RollupRules, limit: number): Promise<'built' | 'more'> {
  const read = await store.rollups.read(day);
  if (read !== null && read.doc.building === null) return 'built';
  const current = read?.doc ?? emptyRollup(day, '');
  const page = await store.pages.byToken(day, current.building ?? '', limit);
  const tokens = byToken(page);
  const full = page.length >= limit;
  // The last token's rows may go on in the next page, unless it is the page's only token (a token has a row a store).
  if (full && tokens.size > 1) tokens.delete(page[page.length - 1]!.token);
  const changes = [...tokens.values()].map((after) => ({ before: [], after }));
  const last = [...tokens.keys()].pop();
  const next = { ...moved(current, changes, rules), building: full ? (last ?? current.building) : null };
  await conditionalWriteOnce(store.rollups, { before: read?.doc ?? null, etag: read?.etag ?? null, after: next }, `rollup ${day}`);
  return full ? 'more' : 'built';
}
