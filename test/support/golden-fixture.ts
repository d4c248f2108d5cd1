import { AGENTS } from './http';

// The golden fixture: four UTC days of traffic, fixed to the minute, that the answers-golden test posts through the
// HTTP endpoints and whose answers it records. Every row says what the test expects of it (a bot? the site's own?),
// so the figures can be worked out from this file alone, without the app's code.

/** Who a visitor is expected to be: a person, a scanner (every request a bot's) or the site itself. */
export type GoldenKind = 'people' | 'scanners' | 'self';

/** The four days, the last of them today. */
export const D0 = '2026-10-20';
export const D1 = '2026-10-21';
export const D2 = '2026-10-22';
export const D3 = '2026-10-23';

/** The fake clock when the first hits are posted: every server hit of the first phase is at or before it. */
export const START = `${D3}T12:00:00.000Z`;

/** When the late hits are posted (days after their `at`, within HIT_MAX_AGE_DAYS). */
export const LATE_POSTED_AT = `${D3}T12:06:00.000Z`;

/** The settings the fixture needs beyond the test defaults: the beacon's address is the `x-forwarded-for` it sends. */
export const GOLDEN_ENV = { TRUSTED_PROXY_HOPS: '1' } as const;

/** The visitors: each its own address and agent, so each is one person hash and one daily token a day. */
export const VISITORS = {
  ann: { address: '203.0.113.10', agent: AGENTS.chromeWindows, kind: 'people' },
  ben: { address: '203.0.113.11', agent: AGENTS.firefoxLinux, kind: 'people' },
  cat: { address: '2001:db8:5::7', agent: AGENTS.safariIphone, kind: 'people' },
  dan: { address: '198.51.100.40', agent: AGENTS.chromeWindows, kind: 'people' },
  eve: { address: '198.51.100.41', agent: AGENTS.firefoxLinux, kind: 'people' },
  // A scanner-looking first day, a person later: a person, counted on the later day.
  pia: { address: '198.51.100.78', agent: AGENTS.safariIphone, kind: 'people' },
  gil: { address: '203.0.113.70', agent: AGENTS.chromeWindows, kind: 'people' },
  hal: { address: '203.0.113.71', agent: AGENTS.firefoxLinux, kind: 'people' },
  ivy: { address: '203.0.113.72', agent: AGENTS.safariIphone, kind: 'people' },
  lee: { address: '203.0.113.73', agent: AGENTS.chromeWindows, kind: 'people' },
  fay: { address: '203.0.113.60', agent: AGENTS.firefoxLinux, kind: 'people' },
  jo: { address: '203.0.113.80', agent: AGENTS.firefoxLinux, kind: 'people' },
  kim: { address: '203.0.113.81', agent: AGENTS.chromeWindows, kind: 'people' },
  googlebot: { address: '66.249.66.1', agent: AGENTS.googlebot, kind: 'scanners' },
  // A browser's agent: a scanner by what it asks for.
  probe: { address: '198.51.100.77', agent: AGENTS.chromeWindows, kind: 'scanners' },
  loopback: { address: '127.0.0.1', agent: 'node-fetch/1.0', kind: 'self' },
  office: { address: '10.20.0.5', agent: AGENTS.firefoxLinux, kind: 'self' },
  tool: { address: '192.0.2.200', agent: `${AGENTS.chromeWindows} headcount-self`, kind: 'self' },
  // A browser like anyone's, made the site's own by the operator key it presents.
  operator: { address: '203.0.113.90', agent: AGENTS.chromeWindows, kind: 'self' },
} as const satisfies Record<string, { address: string; agent: string; kind: GoldenKind }>;

export type GoldenVisitorName = keyof typeof VISITORS;

/**
 * One request of the fixture. `via`: in a day's batch to /api/hits, alone to /api/hits, or as a beacon (its `at` is
 * the fake clock's when it is sent). `bot`: expected to look like a bot (said only of visitors who are not the site's
 * own, whose kind it decides). `ignored`: expected to be answered as
 * ignored (a page's file, an Admin read). `late`: posted after the first recount, days after its `at`.
 */
export interface GoldenRow {
  who: GoldenVisitorName;
  at: string;
  path: string;
  via: 'batch' | 'single' | 'beacon';
  store?: 'site' | 'shop';
  referrer?: string;
  pageLoad?: boolean;
  subject?: string;
  /** Sent with the operator key: the hit's `operator` field, or a beacon's `x-operator-key` header. */
  operator?: boolean;
  /** A beacon that asks whether this scan is the visitor's first. */
  status?: boolean;
  /** A beacon sent as `text/plain`, as `sendBeacon` sends it. */
  plain?: boolean;
  bot?: boolean;
  ignored?: boolean;
  late?: boolean;
}

const t = (day: string, time: string) => `${day}T${time}.000Z`;
const hit = (who: GoldenVisitorName, at: string, path: string, more: Partial<GoldenRow> = {}): GoldenRow => ({
  who,
  at,
  path,
  via: 'batch',
  ...more,
});
const page = (who: GoldenVisitorName, at: string, path: string, more: Partial<GoldenRow> = {}) =>
  hit(who, at, path, { pageLoad: true, ...more });
const scan = (who: GoldenVisitorName, at: string, subject: string, more: Partial<GoldenRow> = {}) =>
  page(who, at, `/scan/${subject}`, { subject, ...more });
const beacon = (who: GoldenVisitorName, time: string, path: string, more: Partial<GoldenRow> = {}) =>
  hit(who, t(D3, time), path, { via: 'beacon', pageLoad: true, ...more });

/** Every request of the fixture, in the order posted (the first phase, then the late hits). */
export const GOLDEN_ROWS: readonly GoldenRow[] = [
  // D0: ann from LinkedIn (and a stylesheet, ignored), the crawler, pia probing, the site's own health check.
  hit('loopback', t(D0, '00:30:00'), '/health'),
  page('googlebot', t(D0, '03:00:00'), '/', { bot: true }),
  hit('pia', t(D0, '04:00:00'), '/.env', { bot: true }),
  page('ann', t(D0, '09:00:00'), '/', { referrer: 'https://www.linkedin.com/feed/' }),
  page('ann', t(D0, '09:02:00'), '/about'),
  hit('ann', t(D0, '09:02:01'), '/styles.css', { ignored: true }),
  // D1: a scanner by path, lee's first poster scan.
  hit('loopback', t(D1, '00:30:00'), '/health'),
  hit('probe', t(D1, '02:00:00'), '/wp-login.php', { bot: true }),
  hit('probe', t(D1, '02:00:30'), '/.env', { bot: true }),
  scan('lee', t(D1, '15:00:00'), 'poster-7'),
  // D2: ann again from search, ben on two stores, dan from lnkd.in, the office, lee again, gil's first tree scan.
  hit('loopback', t(D2, '00:30:00'), '/health'),
  page('googlebot', t(D2, '03:00:00'), '/about', { bot: true }),
  page('ann', t(D2, '10:00:00'), '/resume', { referrer: 'https://www.google.com/' }),
  page('office', t(D2, '12:00:00'), '/'),
  page('dan', t(D2, '14:00:00'), '/', { referrer: 'https://lnkd.in/abc' }),
  page('dan', t(D2, '14:10:00'), '/about'),
  scan('lee', t(D2, '15:00:00'), 'poster-7'),
  page('ben', t(D2, '16:00:00'), '/', { referrer: 'https://blog.example.org/post/1' }),
  page('ben', t(D2, '16:05:00'), '/cart', { store: 'shop', referrer: 'https://blog.example.org/' }),
  hit('ben', t(D2, '16:06:00'), '/api/cart?id=3', { store: 'shop' }),
  scan('gil', t(D2, '18:00:00'), 'tree-1'),
  // D3: the site's tools, cat from search, pia as a person, the operator, tree-1 scanned by people, a crawler and the site.
  hit('loopback', t(D3, '00:30:00'), '/health'),
  page('tool', t(D3, '07:00:00'), '/'),
  page('cat', t(D3, '08:00:00'), '/', { referrer: 'https://www.google.co.uk/' }),
  page('cat', t(D3, '08:30:00'), '/projects'),
  hit('cat', t(D3, '08:31:00'), '/api/admin/visitors/people', { ignored: true }),
  page('pia', t(D3, '09:00:00'), '/', { referrer: 'https://news.ycombinator.com/item?id=1' }),
  page('operator', t(D3, '10:00:00'), '/about', { operator: true }),
  // gil: counted, a reload (5 s), a repeat within the interval (30 s), counted (90 s), counted (20 min).
  scan('gil', t(D3, '11:00:00'), 'tree-1'),
  scan('gil', t(D3, '11:00:05'), 'tree-1'),
  scan('gil', t(D3, '11:00:30'), 'tree-1'),
  scan('gil', t(D3, '11:01:30'), 'tree-1'),
  scan('hal', t(D3, '11:10:00'), 'tree-1'),
  scan('gil', t(D3, '11:20:00'), 'tree-1'),
  scan('googlebot', t(D3, '11:30:00'), 'tree-1', { bot: true }),
  scan('loopback', t(D3, '11:31:00'), 'tree-1'),
  page('hal', t(D3, '11:45:00'), '/about', { via: 'single', referrer: 'https://www.linkedin.com/in/someone' }),
  // D3 from browsers, the clock moving with them: fay from GitHub, tree-2 by jo (new, a reload, counted again) and kim,
  // the site's tool scanning it, the operator's browser.
  beacon('fay', '12:00:00', '/', { referrer: 'https://github.com/someone', plain: true }),
  beacon('jo', '12:01:00', '/scan/tree-2', { subject: 'tree-2', status: true }),
  beacon('jo', '12:01:04', '/scan/tree-2', { subject: 'tree-2', status: true }),
  beacon('jo', '12:02:10', '/scan/tree-2', { subject: 'tree-2', status: true }),
  beacon('kim', '12:03:00', '/scan/tree-2', { subject: 'tree-2', status: true }),
  beacon('tool', '12:03:30', '/scan/tree-2', { subject: 'tree-2', status: true }),
  beacon('operator', '12:04:00', '/', { operator: true }),
  // Late: posted after the first recount, two and three days after they happened.
  page('googlebot', t(D1, '03:00:00'), '/', { bot: true, late: true }),
  page('eve', t(D1, '16:00:00'), '/', { referrer: 'https://www.linkedin.com/in/someone', late: true }),
  page('cat', t(D1, '20:00:00'), '/', { late: true }),
  scan('ivy', t(D0, '20:00:00'), 'tree-1', { late: true }),
  hit('ivy', t(D0, '20:00:30'), '/wp-login.php', { bot: true, late: true, via: 'single' }),
];

/** The subjects the fixture scans, by name. */
export const GOLDEN_SUBJECTS = [...new Set(GOLDEN_ROWS.flatMap((row) => (row.subject ? [row.subject] : [])))].sort();

/** The kind a row is expected to count as: the site's own by its visitor or the operator key, else a bot's or a person's. */
export const rowKind = (row: GoldenRow): GoldenKind =>
  row.operator || VISITORS[row.who].kind === 'self' ? 'self' : row.bot ? 'scanners' : 'people';

/** The UTC day of a row. */
export const dayOf = (row: GoldenRow) => row.at.slice(0, 10);
