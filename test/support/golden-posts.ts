import type { fixedClock } from '../../shared/core/ports/clock';
import { dayOf, VISITORS, type GoldenRow } from './golden-fixture';
import { browserHeaders, post } from './http';

/** The posts of a phase in order: each day's batch rows together, a single hit alone, each beacon at its own moment. */
export function postsOf(rows: readonly GoldenRow[]): GoldenRow[][] {
  const posts: GoldenRow[][] = [];
  for (const row of rows) {
    const last = posts.at(-1);
    if (row.via === 'batch' && last?.[0]?.via === 'batch' && dayOf(last[0]) === dayOf(row)) last.push(row);
    else posts.push([row]);
  }
  return posts;
}

const serverHit = (row: GoldenRow, operatorKey: string) => ({
  at: row.at,
  address: VISITORS[row.who].address,
  user_agent: VISITORS[row.who].agent,
  path: row.path,
  store: row.store,
  referrer: row.referrer,
  page_load: row.pageLoad ?? false,
  subject: row.subject,
  operator: row.operator ? operatorKey : undefined,
});

/** Where a post goes and with which keys. */
export interface GoldenTarget {
  url: string;
  env: Record<string, string | undefined>;
}

/** Sends one post of the fixture: a beacon at its moment on the fake clock, or server hits to /api/hits. */
export async function sendGolden(t: GoldenTarget, clock: ReturnType<typeof fixedClock>, rows: GoldenRow[], poster: typeof post = post) {
  const first = rows[0]!;
  if (first.via === 'beacon') {
    clock.set(first.at);
    const body = JSON.stringify({ path: first.path, referrer: first.referrer, subject: first.subject, status: first.status });
    const headers: Record<string, string> = {
      ...browserHeaders(VISITORS[first.who].agent),
      origin: 'https://site.example',
      'user-agent': VISITORS[first.who].agent,
      'x-forwarded-for': VISITORS[first.who].address,
    };
    if (first.plain) headers['content-type'] = 'text/plain';
    if (first.operator) headers['x-operator-key'] = t.env.OPERATOR_KEY!;
    return poster(`${t.url}/api/beacon`, body, headers);
  }
  const hits = rows.map((row) => serverHit(row, t.env.OPERATOR_KEY!));
  return poster(`${t.url}/api/hits`, first.via === 'single' ? hits[0] : { hits }, { 'x-ingest-key': t.env.INGEST_KEY! });
}
