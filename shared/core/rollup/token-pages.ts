import type { RollupRules } from './day-rollup';
import { tokenRow, type TokenRow } from './day-columns';
import type { VisitorDay } from '../store/activity';
import type { VisitorDayPages } from '../store/rollups';

/** Visitor-days a page reads. */
const PAGE = 500;

/** A day's visitor-days as token rows, a page at a time: a token's rows are never split between two pages. */
export async function* tokenPages(pages: VisitorDayPages, day: string, rules: RollupRules): AsyncGenerator<TokenRow[]> {
  let after = '';
  for (;;) {
    const page = await pages.byToken(day, after, PAGE);
    const tokens = new Map<string, VisitorDay[]>();
    for (const row of page) tokens.set(row.token, [...(tokens.get(row.token) ?? []), row]);
    const full = page.length >= PAGE;
    // The last token's rows may go on in the next page, unless it is the page's only token.
    if (full && tokens.size > 1) tokens.delete(page[page.length - 1]!.token);
    yield [...tokens.values()].map((docs) => tokenRow(docs, rules));
    if (!full) return;
    after = [...tokens.keys()].pop()!;
  }
}
