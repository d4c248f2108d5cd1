import { D0, D1, D2, D3, dayOf, GOLDEN_ROWS, rowKind, VISITORS, type GoldenKind, type GoldenRow } from './golden-fixture';
import { plainFigures, type FixtureScan } from './subjects';

// What the golden fixture should answer, worked out from its rows with no code of the app's: the check that the golden
// file holds the right figures, not merely the ones the code gave when it was written.

const FIXTURE_DAYS = [D0, D1, D2, D3];
const RANK: Record<GoldenKind, number> = { scanners: 0, people: 1, self: 2 };
const stronger = (a: GoldenKind, b: GoldenKind) => (RANK[a] >= RANK[b] ? a : b);
const counted = GOLDEN_ROWS.filter((row) => !row.ignored);

// Every scanner of the fixture is a bot for one reason on all its requests: its agent names it (a crawler, a library),
// or, with a browser's agent from a documentation network, what it asks for.
const reasonOf = (row: GoldenRow) => (/bot|curl/i.test(VISITORS[row.who].agent) ? 'agent' : 'path');

/** Each daily token's kind: one per address per day, the strongest of its rows' kinds, whichever stores it reached. */
function tokenDays(): Map<string, { day: string; kind: GoldenKind; reason: 'agent' | 'path' }> {
  const days = new Map<string, { day: string; kind: GoldenKind; reason: 'agent' | 'path' }>();
  for (const row of counted) {
    const key = `${dayOf(row)}|${VISITORS[row.who].address}`;
    const known = days.get(key);
    days.set(key, { day: dayOf(row), kind: known ? stronger(known.kind, rowKind(row)) : rowKind(row), reason: reasonOf(row) });
  }
  return days;
}

/** A referrer's group, by a table of this file's own: LinkedIn, search (Google), GitHub, or another named host. */
function groupOf(referrer: string | undefined): { group: 'linkedin' | 'github' | 'search' | 'other' | 'typed'; host?: string } {
  if (referrer === undefined) return { group: 'typed' };
  const host = new URL(referrer).hostname.replace(/^(www|m)\./, '');
  if (host === 'linkedin.com' || host === 'lnkd.in') return { group: 'linkedin' };
  if (host.startsWith('google.')) return { group: 'search' };
  if (host === 'github.com') return { group: 'github' };
  return { group: 'other', host };
}

/** People's page loads: those whose daily token was a person's that day. */
function peopleLoads() {
  const kinds = tokenDays();
  return counted.filter((row) => row.pageLoad && kinds.get(`${dayOf(row)}|${VISITORS[row.who].address}`)!.kind === 'people');
}

/** People's page loads by source over the fixture's days. */
function sources() {
  const loads = peopleLoads();
  const totals = { linkedin: 0, github: 0, search: 0, other: 0, typed: 0 };
  const hosts: Record<string, number> = {};
  for (const row of loads) {
    const { group, host } = groupOf(row.referrer);
    totals[group] += 1;
    if (host) hosts[host] = (hosts[host] ?? 0) + 1;
  }
  return {
    ...totals,
    other_hosts: Object.entries(hosts)
      .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
      .map(([host, page_loads]) => ({ host, page_loads })),
  };
}

/** Per subject: people's scans by the refresh and interval rules (the defaults, 10 s and 60 s), scanners' and the site's apart. */
function subjects() {
  const scans = counted.filter((row): row is GoldenRow & { subject: string } => row.subject !== undefined);
  const ofPeople: FixtureScan[] = scans
    .filter((row) => rowKind(row) === 'people')
    .map((row) => ({ person: row.who, subject: row.subject, ms: Date.parse(row.at) }));
  const figures = plainFigures(ofPeople);
  return [...figures].map(([subject, f]) => ({
    subject,
    ...f,
    scanners: scans.filter((row) => row.subject === subject && rowKind(row) === 'scanners').length,
    self: scans.filter((row) => row.subject === subject && rowKind(row) === 'self').length,
  }));
}

/** A person's first day among people as the row was kept: their rows posted with it or before it. */
const firstAsKept = (row: GoldenRow) =>
  counted
    .filter((other) => other.who === row.who && rowKind(other) === 'people' && (row.late === true || other.late !== true))
    .map(dayOf)
    .sort()[0]!;

/** The figures the fixture should give: people, scanners, visits, the card's kinds and sources, the subjects. */
export function expectedFromFixture() {
  const names = [...new Set(counted.filter((row) => rowKind(row) !== 'self').map((row) => row.who))];
  const countedOn = new Map<string, string>();
  for (const row of counted) {
    if (rowKind(row) !== 'people') continue;
    const known = countedOn.get(row.who);
    if (known === undefined || dayOf(row) < known) countedOn.set(row.who, dayOf(row));
  }
  const kinds = [...tokenDays().values()];
  const of = (day: string, kind: GoldenKind) => kinds.filter((v) => v.day === day && v.kind === kind).length;
  return {
    people_all_time: countedOn.size,
    scanners_left_out: names.length - countedOn.size,
    counted_from: [...countedOn.values()].sort()[0],
    people_new_by_day: FIXTURE_DAYS.map((day) => ({ day, people: [...countedOn.values()].filter((d) => d === day).length })),
    visits_all_time: kinds.filter((v) => v.kind === 'people').length,
    visits_by_day: FIXTURE_DAYS.map((day) => ({ day, visits: of(day, 'people') })),
    by_day: FIXTURE_DAYS.map((day) => {
      const leftOut = (reason: string) => kinds.filter((v) => v.day === day && v.kind === 'scanners' && v.reason === reason).length;
      return {
        day,
        people: of(day, 'people'),
        scanners: of(day, 'scanners'),
        self: of(day, 'self'),
        total: kinds.filter((v) => v.day === day).length,
        left_out: { agent: leftOut('agent'), path: leftOut('path'), network: 0, signals: 0 },
        page_loads: peopleLoads().filter((row) => dayOf(row) === day).length,
        // The day's people first counted that day, and those of its people first counted before it as the day was kept:
        // an earlier day posted late leaves them new on the later day (docs/returning.md).
        people_new: [...countedOn.values()].filter((d) => d === day).length,
        returning: new Set(
          counted.filter((row) => dayOf(row) === day && rowKind(row) === 'people' && firstAsKept(row) < day).map((row) => row.who),
        ).size,
      };
    }),
    sources: sources(),
    subjects: subjects(),
  };
}
