import { addDays } from '../core/days';
import { estimate, mergeKept } from '../core/sketch';
import type { RollupReader } from '../core/store/rollups';
import type { Versioned } from '../core/store/documents';
import { peopleFiguresOf, type VisitorsSummaries, type VisitorsSummary, type VisitorsSummaryReader } from '../core/store/summary';
import type { VisitsSummaries, VisitsSummary } from '../core/store/visits';

/** What `*`'s reads take from the first site, whose days up to the one `*` began are all sites' days too. */
export interface EarlierDays {
  first: { visitorsSummary: Pick<VisitorsSummaries, 'read'>; visits: Pick<VisitsSummaries, 'read'>; rollupReader: RollupReader };
  /** Every declared site's, whose people all time together bound all sites'. */
  sites: ReadonlyArray<Pick<VisitorsSummaries, 'read'>>;
  /** The first day `*` holds. */
  from(): Promise<string>;
  /** The first site's days that share instants with a day of `*`: the day itself, or two when their zones differ. */
  firstDaysOf(day: string): Promise<string[]>;
}

type ByDay = Record<string, number>;

const before = (days: ByDay, end: string): ByDay => Object.fromEntries(Object.entries(days).filter(([day]) => day < end));

/** `*`'s own days, and the first site's before `end`, which `*` holds only when another site brought them. */
function withEarlier(own: ByDay, first: ByDay, end: string, join: (a: number, b: number) => number): ByDay {
  const days = { ...own };
  for (const [day, count] of Object.entries(before(first, end))) days[day] = join(days[day] ?? 0, count);
  return days;
}

/** `*`'s `from`, joined with the first site's days that share its instants: the larger, where no sketch says more. */
function onFrom(days: ByDay, first: ByDay, from: string, overlapping: readonly string[]): ByDay {
  const most = Math.max(days[from] ?? 0, ...overlapping.map((day) => first[day] ?? 0));
  return most > 0 ? { ...days, [from]: most } : days;
}

const sum = (a: number, b: number) => a + b;

const total = (days: ByDay) => Object.values(days).reduce((sum, n) => sum + n, 0);

/**
 * `*`'s days and the first site's up to `from`: a day both hold has the larger of its new people, and `from` itself the
 * union of its own and the first site's days that share its instants (`overlapping`, and `newOnFrom` their union when
 * the sketches tell it). A first site's person who came again after `from` is new in `*` too, so people all time is
 * bounded by the sum of the sites'.
 */
export function joinedSummary(
  first: VisitorsSummary | null,
  all: VisitorsSummary,
  from: string,
  bound: number,
  newOnFrom?: number,
  overlapping: readonly string[] = [from],
): VisitorsSummary {
  const end = overlapping[0]! < from ? overlapping[0]! : from;
  const firstPeople = first?.people_new_by_day ?? {};
  const people = onFrom(withEarlier(all.people_new_by_day, firstPeople, end, Math.max), firstPeople, from, overlapping);
  if (newOnFrom !== undefined && newOnFrom > 0) people[from] = newOnFrom;
  const firstScanners = first?.scanners_by_day ?? {};
  const scanners = onFrom(withEarlier(all.scanners_by_day, firstScanners, end, Math.max), firstScanners, from, overlapping);
  return {
    ...all,
    people_all_time: Math.min(total(people), bound),
    scanners_left_out: total(scanners),
    counted_from: Object.keys(people).sort()[0] ?? null,
    people_new_by_day: people,
    scanners_by_day: scanners,
  };
}

/** A visit is a person's day on one site, so the first site's up to `from` add to `*`'s. */
export function joinedVisits(first: VisitsSummary | null, all: VisitsSummary, from: string): VisitsSummary {
  const byDay = withEarlier(all.by_day, first?.by_day ?? {}, addDays(from, 1), sum);
  return { ...all, all_time: total(byDay), from: Object.keys(byDay).sort()[0] ?? null, by_day: byDay };
}

interface SummaryStore {
  rollupReader: RollupReader;
  visitorsSummary: VisitorsSummaries & VisitorsSummaryReader;
  visits: VisitsSummaries;
}

const orEmpty = <T>(read: Versioned<T> | null, empty: T): Versioned<T> => read ?? { doc: empty, etag: '' };

/** `*`'s store as its reads see it: its summaries joined to the first site's days up to that day; writes stay its own. */
export function allSitesReads<S extends SummaryStore>(
  all: S,
  earlier: EarlierDays,
  empty: { people: VisitorsSummary; visits: VisitsSummary },
): S {
  const people = async (): Promise<Versioned<VisitorsSummary>> => {
    const from = await earlier.from();
    const overlapping = await earlier.firstDaysOf(from);
    const [own, first, sites, firstDays, allDay] = await Promise.all([
      all.visitorsSummary.read(),
      earlier.first.visitorsSummary.read(),
      Promise.all(earlier.sites.map((site) => site.read())),
      earlier.first.rollupReader.onDays(overlapping),
      all.rollupReader.onDays([from]),
    ]);
    const bound = sites.reduce((sum, site) => sum + (site?.doc.people_all_time ?? 0), 0);
    // On the day all sites began both stores hold people, each person once in the union of their sketches.
    const newOnFrom = estimate(mergeKept(...overlapping.map((day) => firstDays.get(day)?.new_sketch), allDay.get(from)?.new_sketch));
    const read = orEmpty(own, empty.people);
    return { ...read, doc: joinedSummary(first?.doc ?? null, read.doc, from, bound, newOnFrom, overlapping) };
  };
  const visits = async (): Promise<Versioned<VisitsSummary>> => {
    const [own, first, from] = await Promise.all([all.visits.read(), earlier.first.visits.read(), earlier.from()]);
    const read = orEmpty(own, empty.visits);
    return { ...read, doc: joinedVisits(first?.doc ?? null, read.doc, from) };
  };
  return {
    ...all,
    visitorsSummary: {
      ...all.visitorsSummary,
      read: people,
      peopleFrom: async (since: string) => peopleFiguresOf((await people()).doc, since),
    },
    visits: { ...all.visits, read: visits },
  };
}
