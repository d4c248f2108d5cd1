// @ts-check
// The dashboard's state, in one place: the view the address keeps (the period and the filters), what the app answered,
// and what the owner picked on the page (the main chart's figure, the visitors' day). Every change of view goes
// through go(), which keeps it in the address (Back undoes it), and every panel draws from `state`.
import { countryName, campaignKeyWords, isDay, makersName, SOURCE_NAMES } from './admin-words.js';
import { DIMENSION_ROWS } from './admin-dimensions.js';

/** @typedef {import('../shared/contract/activity').PeriodReportAnswer} Card */
/** @typedef {import('../shared/contract/activity').NowAnswer} NowAnswer */
/** @typedef {import('../shared/contract/activity').DayVisitorsAnswer} DayAnswer */
/** @typedef {import('../shared/contract/activity').FilterDimension} Dimension */
/** @typedef {import('../shared/contract/count').PeopleCountAnswer} PeopleAnswer */
/** @typedef {import('../shared/contract/admin').SubjectsPageAnswer} SubjectsAnswer */
/** @typedef {import('../shared/contract/admin').OperatorMarkAnswer} MarkAnswer */
/** @typedef {import('../shared/contract/retention').RetentionAnswer} RetentionAnswer */
/** @typedef {import('../shared/contract/links').SharedCardAnswer['view']} SharedView */
/** @typedef {'today' | '7d' | '30d' | '90d' | '12m' | 'all'} PeriodName */
/** @typedef {{ name: PeriodName } | { from: string, to: string }} Period */
/** @typedef {{ dimension: Dimension, value: string, negated: boolean }} Filter */
/** @typedef {{ period: Period, filters: Filter[], site: string | null, refused: string | null }} View */
/** @typedef {'visits' | 'page_loads' | 'kinds' | 'returning'} Figure */
/**
 * A read's outcome: the answer, or why there is none.
 * @template T
 * @typedef {{ ok: true, body: T } | { ok: false, why: string }} Read
 */

/**
 * The periods a site owner picks from, by the name the address keeps (`?period=7d`), the `days=` the card is read
 * with, the key that picks it, and the words that finish a caption and name the period just before.
 * @type {Record<PeriodName, { days: string, key: string, label: string, words: string, before: string | null }>}
 */
export const PERIODS = {
  today: { days: '1', key: 't', label: 'Today', words: 'today', before: 'the day before' },
  '7d': { days: '7', key: 'w', label: '7 days', words: 'the last 7 days', before: 'the 7 days before' },
  '30d': { days: '30', key: 'm', label: '30 days', words: 'the last 30 days', before: 'the 30 days before' },
  '90d': { days: '90', key: 'q', label: '90 days', words: 'the last 90 days', before: 'the 90 days before' },
  '12m': { days: '365', key: 'y', label: '12 months', words: 'the last 12 months', before: 'the 12 months before' },
  all: { days: 'all', key: 'a', label: 'All time', words: 'all time', before: null },
};
export const DEFAULT_PERIOD = '30d';

/** How a value reads, by the words its dimension's row names. */
/** @type {Record<import('./admin-dimensions.js').DimensionRow['words'], (value: string) => string>} */
const WORDS = {
  plain: (v) => v,
  source: (v) => SOURCE_NAMES[/** @type {keyof typeof SOURCE_NAMES} */ (v)] ?? v,
  campaign: campaignKeyWords,
  country: countryName,
  maker: makersName,
};

/** Each dimension a filter can name, as a chip says it, and how its value reads. */
export const DIMENSIONS = /** @type {Record<Dimension, { name: string, words: (value: string) => string }>} */ (
  Object.fromEntries(DIMENSION_ROWS.map((row) => [row.filter, { name: row.label, words: WORDS[row.words] }]))
);

const isDimension = (/** @type {string} */ name) => Object.hasOwn(DIMENSIONS, name);

/** A `filter=` value read: `page:/pricing`, `!country:US`; null when it names no dimension the dashboard knows. */
export function readFilter(/** @type {string} */ text) {
  const negated = text.startsWith('!');
  const body = negated ? text.slice(1) : text;
  const at = body.indexOf(':');
  if (at < 1) return null;
  const dimension = body.slice(0, at);
  if (!isDimension(dimension)) return null;
  return /** @type {Filter} */ ({ dimension, value: body.slice(at + 1), negated });
}

/** A filter as the address and the API write it. */
export const filterText = (/** @type {Filter} */ f) => `${f.negated ? '!' : ''}${f.dimension}:${f.value}`;

/** The view an address asks for; `refused` says what of it could not be read (and so is not shown). */
export function viewFromAddress(/** @type {string} */ search) {
  const query = new URLSearchParams(search);
  /** @type {string[]} */
  const refused = [];
  /** @type {Period} */
  let period = { name: DEFAULT_PERIOD };
  if (query.has('from') || query.has('to')) {
    const from = query.get('from') ?? '';
    const to = query.get('to') ?? '';
    if (isDay(from) && isDay(to) && from <= to) period = { from, to };
    else
      refused.push(
        'The address has no readable range (from and to, as YYYY-MM-DD, the first not after the last), so the last 30 days are shown.',
      );
  } else {
    const name = query.get('period');
    if (name !== null && Object.hasOwn(PERIODS, name)) period = { name: /** @type {PeriodName} */ (name) };
    else if (name !== null) refused.push('The address names a period the dashboard does not know, so the last 30 days are shown.');
  }
  /** @type {Filter[]} */
  const filters = [];
  for (const text of query.getAll('filter')) {
    const filter = readFilter(text);
    if (filter) filters.push(filter);
    else refused.push(`The address has a filter the dashboard cannot read (${text}), so it is left out.`);
  }
  return { period, filters, site: query.get('site') || null, refused: refused.length ? refused.join(' ') : null };
}

/** The query that keeps a view: the address's, and the card's and the export's after their own period words. */
function viewQuery(/** @type {View} */ view, /** @type {Record<string, string>} */ period) {
  const query = new URLSearchParams(period);
  for (const filter of view.filters) query.append('filter', filterText(filter));
  if (view.site) query.set('site', view.site);
  return query;
}

/**
 * The address that keeps a view, so it can be bookmarked, reloaded and shared; it keeps `:`, `/` and `!` as they are
 * (a query may hold them), so it reads as `?period=7d&filter=page:/pricing`.
 */
export const addressOf = (/** @type {View} */ view) => {
  const query = viewQuery(view, 'from' in view.period ? { from: view.period.from, to: view.period.to } : { period: view.period.name });
  // A shared link's token is the fragment: every step keeps it, or the next read would have no link.
  const share = location.hash.startsWith('#share=') ? location.hash : '';
  return `${location.pathname}?${query.toString().replace(/%3A/gi, ':').replace(/%2F/gi, '/').replace(/%21/g, '!').replace(/%2A/gi, '*')}${share}`;
};

/** The named period of a link's fixed `days`, or null when none is (a link made with another number of days). */
export const periodOfDays = (/** @type {string} */ days) =>
  /** @type {PeriodName | undefined} */ (Object.keys(PERIODS).find((name) => PERIODS[/** @type {PeriodName} */ (name)].days === days)) ??
  null;

/** Whether the view may move to a period: any, unless a shared link fixes one (then only that one). */
export function periodAllowed(/** @type {PeriodName | 'custom'} */ name) {
  const fixed = state.shared?.days ?? null;
  if (fixed === null) return true;
  const named = periodOfDays(fixed);
  return named === null ? name === 'custom' : name === named;
}

/** The filters a shared link fixes: shown, never removed. */
export const fixedFilters = () => /** @type {Filter[]} */ ((state.shared?.filters ?? []).map(readFilter).filter((f) => f !== null));

/** The card's query for a view: `days=7`, `days=all` or `from=…&to=…`, and its filters. */
export const cardQuery = (/** @type {View} */ view) =>
  viewQuery(
    view,
    'from' in view.period ? { from: view.period.from, to: view.period.to } : { days: PERIODS[view.period.name].days },
  ).toString();

/** The retention read's query for a view: twelve months, and the view's filters (the period is not its). */
export const retentionQuery = (/** @type {View} */ view) => viewQuery(view, { months: '12' }).toString();

/** The export's query for the days a card answered and the view's filters. */
export const exportQuery = (/** @type {View} */ view, /** @type {string} */ from, /** @type {string} */ to, /** @type {string} */ format) =>
  viewQuery(view, { from, to, format }).toString();

/** Whether two filters are the same. */
export const sameFilter = (/** @type {Filter} */ a, /** @type {Filter} */ b) =>
  a.dimension === b.dimension && a.value === b.value && a.negated === b.negated;

export const state = {
  /** @type {View} */
  view: viewFromAddress(location.search),
  /** The app's today (its clock, not this browser's): the last day of the count. @type {string | null} */
  appToday: null,
  /** @type {Figure} */
  figure: 'visits',
  signedIn: false,
  /** What a shared link shows (its site, period and filters), once its card is read; null outside one. @type {SharedView | null} */
  shared: null,
  /** Each read of the card takes the next number; the answers of an older one are dropped, never drawn over newer ones. */
  generation: 0,
  /** The day the owner picked for the visitors' table; null follows the period's last day. @type {string | null} */
  day: null,
  answers: {
    /** @type {Read<Card> | null} */
    card: null,
    /** @type {Read<PeopleAnswer> | null} */
    people: null,
    /** @type {Read<NowAnswer> | null} */
    now: null,
    /** @type {Read<SubjectsAnswer> | null} */
    subjects: null,
    /** @type {Read<MarkAnswer> | null} */
    mark: null,
    /** @type {Read<RetentionAnswer> | null} */
    retention: null,
  },
};

/** What to do when the view changes (set by admin.js): read the card again and draw it. */
let onView = () => {};
export const whenViewChanges = (/** @type {() => void} */ act) => (onView = act);

/** Keeps a new view in the address (a step the browser's Back undoes) and shows it. */
export function go(/** @type {Omit<View, 'refused' | 'site'> & { site?: string | null }} */ view) {
  history.pushState(null, '', addressOf({ site: state.view.site, ...view, refused: null }));
  followAddress();
}

/** Reads the view the address keeps (on load, after go(), and on Back and Forward) and shows it. */
export function followAddress() {
  state.view = viewFromAddress(location.search);
  state.day = null;
  onView();
}

/**
 * The view with a filter added in place of `replacing` (a chip switched between is and is not), or else of one of the
 * same dimension and sense, as a click on another row of the same list means.
 * @param {Filter} filter
 * @param {Filter | null} [replacing]
 */
export function withFilter(filter, replacing = null) {
  const replaced = (/** @type {Filter} */ f) =>
    replacing ? sameFilter(f, replacing) : f.dimension === filter.dimension && f.negated === filter.negated;
  const at = state.view.filters.findIndex(replaced);
  const filters = state.view.filters.filter((f) => !replaced(f) && !sameFilter(f, filter));
  filters.splice(at < 0 ? filters.length : at, 0, filter);
  return { period: state.view.period, filters };
}

/** The view without a filter. */
export const withoutFilter = (/** @type {Filter} */ filter) => ({
  period: state.view.period,
  filters: state.view.filters.filter((f) => !sameFilter(f, filter)),
});
