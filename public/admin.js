// headcount Admin: signs in with the operator key, which it exchanges for a session (an HttpOnly cookie no script can
// read; the key is never kept in the browser), then reads the count, the activity of the chosen period, the day's
// visitors, the subjects, the mark and now, each panel on its own, so one that fails says so and the others still show.
// The words come from the widget's script (one rule for "no people, 1 person, 2 people" and "since 23 Oct" on both
// surfaces). Everything a visitor controls (paths, hosts, campaign tags) reaches the page as text only: through el()
// and textContent, never innerHTML.
const Pulse = customElements.get('headcount-pulse');
const { unitOf, figure, dayWords } = Pulse.words;

// Every read the dashboard makes, in one place (docs/design.md "Reads").
const API = {
  session: '/api/admin/session',
  people: '/api/admin/visitors/people',
  activity: '/api/admin/activity',
  visitors: '/api/admin/activity/visitors',
  subjects: '/api/admin/subjects?sort=scans&order=desc&limit=50',
  mark: '/api/admin/mark',
  now: '/api/admin/now',
  export: '/api/admin/export',
};
// Okabe–Ito: a set that stays apart under the common colour blindnesses, each at 3:1 or more on white.
const KIND_COLOURS = { people: '#0072B2', scanners: '#D55E00', self: '#009E73' };
const STORE_COLOURS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#000000', '#56B4E9'];
const SOURCE_NAMES = { linkedin: 'LinkedIn', github: 'GitHub', search: 'Search', other: 'Other sites', typed: 'Typed or unknown' };
// Browsers, systems and device types as their makers write them; the app keeps them lowercase, and the export keeps that.
const MAKERS_NAMES = {
  chrome: 'Chrome', chromium: 'Chromium', firefox: 'Firefox', safari: 'Safari', edge: 'Edge', opera: 'Opera',
  'samsung internet': 'Samsung Internet', ie: 'Internet Explorer', vivaldi: 'Vivaldi', brave: 'Brave',
  'yandex browser': 'Yandex Browser', 'uc browser': 'UC Browser', 'qq browser': 'QQ Browser', 'android browser': 'Android Browser',
  'amazon silk': 'Amazon Silk', 'naver whale browser': 'NAVER Whale', duckduckgo: 'DuckDuckGo', electron: 'Electron', wechat: 'WeChat',
  windows: 'Windows', macos: 'macOS', ios: 'iOS', ipados: 'iPadOS', android: 'Android', linux: 'Linux', chromeos: 'ChromeOS',
  'windows phone': 'Windows Phone', webos: 'webOS', tizen: 'Tizen', blackberry: 'BlackBerry', 'playstation 4': 'PlayStation 4', roku: 'Roku',
  desktop: 'Desktop', mobile: 'Mobile', tablet: 'Tablet', tv: 'TV', unknown: 'Unknown', other: 'Other',
};
/** A browser, system or device type as its maker writes it ("macos" is macOS); one the list does not know gets capitals. */
const makersName = (name) => MAKERS_NAMES[name] ?? String(name).replace(/(^|[\s-])\p{Ll}/gu, (letter) => letter.toUpperCase());
const regionNames = (() => {
  try {
    return new Intl.DisplayNames(['en'], { type: 'region' });
  } catch {
    return null;
  }
})();
/** A country's name in English from its two-letter code ("DE" is Germany): XX is Unknown, a code Intl does not know stays a code. */
function countryName(code) {
  if (code === 'XX') return 'Unknown';
  try {
    const name = regionNames?.of(code);
    return name && name !== code ? name : code;
  } catch {
    return code;
  }
}

const $ = (selector, within = document) => within.querySelector(selector);
const el = (tag, props = {}, ...children) => {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children.filter((child) => child !== null && child !== undefined));
  return node;
};

Chart.defaults.animation = false;
Chart.defaults.color = '#1b1f24';
Chart.defaults.borderColor = '#e3e7ec';
Chart.defaults.font.family = getComputedStyle(document.documentElement).fontFamily;
Chart.defaults.maintainAspectRatio = false;

/** Thrown when the session is no longer accepted (it ended, or the key was rotated): every panel stops and the dashboard signs out. */
class SignedOut extends Error {}

/** A read of the app with the session (its cookie goes with every request to the app): the body, or why there is none; a 401 signs out. */
async function read(path) {
  try {
    const response = await fetch(path, { cache: 'no-store', credentials: 'same-origin' });
    const body = await response.json().catch(() => null);
    if (response.status === 401) throw new SignedOut();
    if (!response.ok) return { ok: false, why: body?.error?.message ?? `the app answered ${response.status}` };
    return { ok: true, body };
  } catch (error) {
    if (error instanceof SignedOut) throw error;
    return { ok: false, why: 'the app could not be reached' };
  }
}

// ---- the words of a count ------------------------------------------------------------------------------------

/** A tile: the figure and the unit that fits it ("No people yet", "1 person", "2 people"), or a dash when unread. */
function tile(name, n, one, many, after = '') {
  const node = $(`[data-figure="${name}"]`);
  const unread = typeof n !== 'number';
  $('.figure', node).textContent = unread ? '–' : n === 0 ? 'No' : figure(n);
  $('.unit', node).textContent = unread ? 'not read' : `${unitOf(n, one, many)}${after}`;
}

const lastOf = (run) => (run && run.length ? run[run.length - 1].day : null);
const shortDay = (day, today) => dayWords(day, today) ?? day;
/** A month (yyyy-MM) as "Nov 2026": the day words of its first day, without the day. */
const monthWords = (month) => dayWords(`${month}-01`, '0000')?.replace(/^1 /, '') ?? month;

/**
 * How a figure moved against the period just before: "+12% on the 7 days before", "new (none in the 7 days
 * before)", or nothing when either figure was not read or there is no period before.
 */
function changeWords(now, then, before) {
  if (typeof now !== 'number' || typeof then !== 'number' || !before) return '';
  if (then === 0) return now === 0 ? `none in ${before} either` : `new (none in ${before})`;
  const percent = Math.round(((now - then) / then) * 100);
  if (percent === 0) return `about as many as ${before}`;
  return `${percent > 0 ? '+' : '−'}${Math.abs(percent)}% on ${before}`;
}

// ---- the period ------------------------------------------------------------------------------------------------

/**
 * The periods a site owner picks from, by the name the address keeps (`?period=7d`) and the `days=` the card is read
 * with. `words` finish a caption ("Visitor-days by kind, the last 7 days"); `before` names the period just before, that
 * the tiles compare with. "Since the start" has none: nothing was counted before it.
 */
const PERIODS = {
  today: { days: '1', words: 'today', before: 'the day before' },
  '7d': { days: '7', words: 'the last 7 days', before: 'the 7 days before' },
  '30d': { days: '30', words: 'the last 30 days', before: 'the 30 days before' },
  '90d': { days: '90', words: 'the last 90 days', before: 'the 90 days before' },
  '12m': { days: '365', words: 'the last 12 months', before: 'the 12 months before' },
  all: { days: 'all', words: 'since the start', before: null },
};
const DEFAULT_PERIOD = '30d';

/** Whether a text is a real UTC day as YYYY-MM-DD (not 2026-02-30). */
const isDay = (text) => /^\d{4}-\d{2}-\d{2}$/.test(text ?? '') && !Number.isNaN(Date.parse(`${text}T00:00:00Z`)) && new Date(`${text}T00:00:00Z`).toISOString().startsWith(text);
const todayUtc = () => new Date().toISOString().slice(0, 10);
const daysFrom = (from, to) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;

/**
 * The period the address asks for: a range (`?from=2026-10-01&to=2026-10-31`), a named one (`?period=7d`), else the
 * last 30 days; `refused` says why an address that asked for something unreadable shows the last 30 days instead.
 */
function periodFromAddress() {
  const query = new URLSearchParams(location.search);
  if (query.has('from') || query.has('to')) {
    const from = query.get('from');
    const to = query.get('to');
    if (isDay(from) && isDay(to) && from <= to) return { from, to };
    return { name: DEFAULT_PERIOD, refused: 'The address has no readable range (from and to, as YYYY-MM-DD, the first not after the last), so the last 30 days are shown.' };
  }
  const name = query.get('period');
  if (name === null) return { name: DEFAULT_PERIOD };
  if (Object.hasOwn(PERIODS, name)) return { name };
  return { name: DEFAULT_PERIOD, refused: 'The address names a period the dashboard does not know, so the last 30 days are shown.' };
}

/** The address that keeps a period, so the view can be bookmarked, reloaded and shared. */
function addressOf(chosen) {
  const query = chosen.from ? new URLSearchParams({ from: chosen.from, to: chosen.to }) : new URLSearchParams({ period: chosen.name });
  return `${location.pathname}?${query}${location.hash}`;
}

/** The card's query for a period: `days=7`, `days=all`, or `from=…&to=…`. */
const activityQuery = (chosen) => (chosen.from ? new URLSearchParams({ from: chosen.from, to: chosen.to }) : new URLSearchParams({ days: PERIODS[chosen.name].days })).toString();

let period = periodFromAddress();
/** The app's today (its clock, not this browser's): the last day of the count, read with every refresh. */
let appToday = null;

/**
 * How the period reads, in the dashboard's day words: `words` end a caption, `within` ends a sentence ("No visitors in
 * the last 7 days."), `before` names the period of the same length just before it. A range and "since the start" are
 * said from the days the card answered, so the words always name what is drawn.
 */
function periodWords(chosen, answer) {
  const today = appToday ?? todayUtc();
  const days = (from, to) => {
    const first = shortDay(from, today);
    const last = shortDay(to, today);
    const length = daysFrom(from, to);
    const before = length === 1 ? 'the day before' : `the ${length} days before`;
    return from === to ? { words: first, within: `on ${first}`, before } : { words: `${first} to ${last}`, within: `from ${first} to ${last}`, before };
  };
  if (chosen.from) return isDay(answer?.from) && isDay(answer?.to) ? days(answer.from, answer.to) : days(chosen.from, chosen.to);
  if (chosen.name === 'all') {
    const words = isDay(answer?.from) ? `since ${shortDay(answer.from, today)}` : PERIODS.all.words;
    return { words, within: words, before: null };
  }
  const { words, before } = PERIODS[chosen.name];
  return { words, within: words === 'today' ? words : `in ${words}`, before };
}

let periodSaid = periodWords(period, null);

/** Says the period in every caption and note that names it. */
function showPeriodWords() {
  for (const node of document.querySelectorAll('.period-words')) node.textContent = periodSaid.words;
}

/** Checks the period's choice (none for a range) and fills the range's two days when they are known. */
function showPeriodChoice(answer = null) {
  for (const radio of document.querySelectorAll('input[name="period"]')) radio.checked = radio.value === period.name;
  const from = period.from ?? (isDay(answer?.from) ? answer.from : null);
  const to = period.to ?? (isDay(answer?.to) ? answer.to : null);
  if (from && to) {
    $('#range-from').value = from;
    $('#range-to').value = to;
  }
}

/** Keeps a new period in the address (a step the browser's Back undoes) and reads it. */
function choosePeriod(chosen) {
  history.pushState(null, '', addressOf(chosen));
  followAddress();
}

/** Reads the period the address keeps (on load, after a pick, and on Back and Forward) and shows it. */
function followAddress() {
  period = periodFromAddress();
  chosenDay = null;
  periodSaid = periodWords(period, null);
  showPeriodWords();
  showPeriodChoice();
  say($('#period-message'), period.refused ?? '', Boolean(period.refused));
  if (signedIn) void loadAll();
}

function chooseRange(event) {
  event.preventDefault();
  const from = $('#range-from').value;
  const to = $('#range-to').value;
  if (!isDay(from) || !isDay(to)) return say($('#period-message'), 'Type both days of the range as YYYY-MM-DD, the first and the last.', true);
  if (from > to) return say($('#period-message'), 'The first day of the range must not be after the last.', true);
  choosePeriod({ from, to });
}

// ---- charts, each with a text alternative ----------------------------------------------------------------------

const charts = new Map();

/**
 * Draws one chart in its figure, or says why there is nothing to draw. The canvas carries a one-sentence summary
 * for a screen reader, and a visually hidden table beside it holds every figure drawn.
 */
function draw(name, { config, summary, table, empty }) {
  const figureNode = $(`[data-chart="${name}"]`);
  const plot = $('.plot', figureNode);
  const drawn = charts.get(name);
  // A chart of the same kind is redrawn on its canvas: a new canvas and chart for each read cost the page a layout each.
  // It is sized first (a list's height follows its rows), and a pointer cursor left by the last hover goes.
  if (!empty && drawn?.config.type === config.type) {
    $('.alt', figureNode)?.remove();
    drawn.canvas.setAttribute('aria-label', summary);
    drawn.canvas.style.cursor = '';
    drawn.data = config.data;
    drawn.options = config.options;
    drawn.resize();
    drawn.update('none');
  } else {
    undraw(name, figureNode);
    if (empty) {
      plot.replaceChildren(el('p', { className: 'empty', textContent: empty }));
      return;
    }
    const canvas = el('canvas', { role: 'img' });
    canvas.setAttribute('aria-label', summary);
    plot.replaceChildren(canvas);
    charts.set(name, new Chart(canvas, config));
  }
  // A table ignores a width of 1px, so the hidden one sits in a block that does not.
  figureNode.append(el('div', { className: 'alt visually-hidden' }, dataTable($('figcaption', figureNode).textContent, table.head, table.rows)));
  figureNode.setAttribute('data-drawn', 'true');
}

/** Takes a figure's chart and its hidden table away; the plot keeps the canvas until the caller replaces it. */
function undraw(name, figureNode) {
  charts.get(name)?.destroy();
  charts.delete(name);
  $('.alt', figureNode)?.remove();
  figureNode.removeAttribute('data-drawn');
}

function failed(name, why) {
  const figureNode = $(`[data-chart="${name}"]`);
  undraw(name, figureNode);
  $('.plot', figureNode).replaceChildren(el('p', { className: 'failed', textContent: `Could not be read: ${why}.` }));
}

/**
 * A table with a caption: the first column heads each row, and the columns `numeric` says are figures (all but the
 * first unless told) are set right. A cell is text, or a node built with el(), never markup.
 */
function dataTable(caption, head, rows, numeric = (i) => i > 0) {
  const headRow = el('tr', {}, ...head.map((text, i) => el('th', { scope: 'col', className: numeric(i) ? 'n' : '', textContent: text })));
  const body = rows.map((row) => tableRow(row, numeric));
  return el('table', { className: 'data' }, el('caption', { textContent: caption }), el('thead', {}, headRow), el('tbody', {}, ...body));
}

/** One row of a data table; append() makes a text node of a string, so a visitor's text can never become markup. */
function tableRow(row, numeric = (i) => i > 0) {
  const cellOf = (cell, i) => {
    const node = i === 0 ? el('th', { scope: 'row' }) : el('td', { className: numeric(i) ? 'n' : '' });
    node.append(cell instanceof Node ? cell : i === 0 ? (cell ?? '') : String(cell));
    return node;
  };
  return el('tr', {}, ...row.map(cellOf));
}

const bars = (labels, datasets, options = {}) => ({ type: 'bar', data: { labels, datasets }, options: { plugins: { legend: { display: datasets.length > 1 } }, scales: { y: { beginAtZero: true, ticks: { precision: 0 } } }, ...options } });
const sum = (values) => values.reduce((total, value) => total + value, 0);

// ---- the panels ------------------------------------------------------------------------------------------------

function showPeople(result) {
  const section = $('#people');
  section.setAttribute('aria-busy', 'false');
  if (!result.ok) {
    for (const name of ['people_all_time', 'people_new_today', 'people_new_month', 'scanners_left_out', 'visits_all_time']) tile(name, null);
    failed('new-people', result.why);
    failed('visits', result.why);
    $('#people-source').textContent = '';
    return;
  }
  const count = result.body;
  const today = lastOf(count.people_new_by_day);
  const since = count.people_all_time && count.counted_from ? ` since ${shortDay(count.counted_from, today)}` : ' yet';
  tile('people_all_time', count.people_all_time, 'person', 'people', since);
  // Null because the timer has not counted yet, not because the store was not read.
  if (count.people_all_time === null && count.source.startsWith('not counted yet'))
    $('[data-figure="people_all_time"] .unit').textContent = 'not counted yet';
  tile('people_new_today', count.people_new_today, 'person', 'people');
  tile('people_new_month', count.people_new_month, 'person', 'people');
  // Beside the figures since counting began, never a bare total: the scanners too say since when.
  tile('scanners_left_out', count.scanners_left_out, 'scanner', 'scanners', count.counted_from ? ` since ${shortDay(count.counted_from, today)}` : ' so far');
  const visits = count.visits;
  if (visits) tile('visits_all_time', visits.all_time, 'visit', 'visits', ` since ${shortDay(visits.from, lastOf(visits.by_day))}`);
  else {
    $('[data-figure="visits_all_time"] .figure').textContent = '–';
    $('[data-figure="visits_all_time"] .unit').textContent = 'not counted yet';
  }
  $('#people-source').textContent = `Read from: ${count.source}.`;
  // Visits that began before the first person are another tool's daily totals (npm run import, docs/import.md).
  const note = $('#people-note');
  note.dataset.plain ??= note.textContent;
  const imported = visits && (count.counted_from === null || visits.from < count.counted_from);
  note.textContent = imported
    ? `${note.dataset.plain} Visits from ${shortDay(visits.from, today)} include daily totals imported from another tool: people cannot be counted from daily totals, so people are counted ${count.counted_from ? `from ${shortDay(count.counted_from, today)}` : 'from the first logged day'}.`
    : note.dataset.plain;

  const run = count.people_new_by_day ?? [];
  const newPeople = run.map((d) => d.people);
  draw('new-people', {
    empty: count.people_new_by_day === null ? 'The count could not be read.' : sum(newPeople) === 0 ? 'No new people in the last 30 days.' : null,
    summary: `New people on each of the last ${run.length} days: ${sum(newPeople)} in all, at most ${Math.max(0, ...newPeople)} in a day.`,
    config: bars(run.map((d) => shortDay(d.day, today)), [{ label: 'New people', data: newPeople, backgroundColor: KIND_COLOURS.people }]),
    table: { head: ['Day', 'New people'], rows: run.map((d) => [d.day, d.people]) },
  });
  const visitRun = visits?.by_day ?? [];
  const perDay = visitRun.map((d) => d.visits);
  draw('visits', {
    empty: visits === null ? 'Visits by people are counted every minute; none are counted yet.' : sum(perDay) === 0 ? 'No visits by people in the last 30 days.' : null,
    summary: `Visits by people on each of the last ${visitRun.length} days: ${sum(perDay)} in all, at most ${Math.max(0, ...perDay)} in a day.`,
    config: bars(visitRun.map((d) => shortDay(d.day, lastOf(visitRun))), [{ label: 'Visits by people', data: perDay, backgroundColor: KIND_COLOURS.people }]),
    table: { head: ['Day', 'Visits by people'], rows: visitRun.map((d) => [d.day, d.visits]) },
  });
}

const AUDIENCE_CHARTS = ['countries', 'campaigns', 'browsers', 'systems', 'types'];

const ACTIVITY_SECTIONS = ['#headline', '#kinds', '#hours', '#pages', '#entry-pages', '#sources', '#referrers', '#goals', '#events', '#path', '#countries', '#campaigns', '#devices', '#imported'];

/**
 * The card of the chosen period. Its answer names the window it read (from, to), which the captions then say; a
 * field it does not carry (an app from before the field) leaves its panel saying it could not be read.
 */
function showActivity(result) {
  for (const id of ACTIVITY_SECTIONS) $(id).setAttribute('aria-busy', 'false');
  const activity = result.ok ? result.body : null;
  const why = !result.ok ? result.why : activity.availability?.available === false ? activity.availability.reason.replace(/\.$/, '') : null;
  $('#availability').textContent = activity?.availability?.reason ?? '';
  periodSaid = periodWords(period, activity);
  showPeriodWords();
  showPeriodChoice(activity);
  showPeriodDays(activity);
  showRollups(activity?.rollups);
  const problem = why ?? (!activity.by_day && !activity.by_month ? 'the store did not answer' : null);
  showHeadline(activity, problem);
  showRanked('pages', activity?.pages, problem, PAGES);
  showRanked('entry-pages', activity?.entry_pages, problem, ENTRY_PAGES);
  showRanked('referrers', activity?.referrers, problem, REFERRERS);
  showRanked('goals', activity?.goals, problem, GOALS);
  showRanked('events', activity?.events, problem, EVENTS);
  showImported(problem ? null : activity?.imported);
  if (problem) {
    for (const name of ['kinds', 'hours', 'sources', 'path', ...AUDIENCE_CHARTS]) failed(name, problem);
    $('#left-out').textContent = '';
    return;
  }
  const within = periodSaid.within;
  showKinds(activity);
  showHours(activity.hours ?? []);
  showSources(activity.sources);
  showPath(activity.path ?? []);
  showCountries(activity.countries ?? []);
  showCampaigns(activity.campaigns ?? []);
  const devices = activity.devices ?? { browsers: [], systems: [], types: [] };
  showNames('browsers', devices.browsers, 'browser', `No people ${within}, or none with a known browser.`);
  showNames('systems', devices.systems, 'system', `No people ${within}, or none with a known system.`);
  showNames('types', devices.types, 'device type', `No people ${within}, or none with a known device type.`);
}

/**
 * The days the figures are of, in the dashboard's day words ("Showing 24 Sep to 23 Oct, UTC days."), whatever way the
 * browser writes the range's two dates; an address that could not be read keeps saying so instead.
 */
function showPeriodDays(activity) {
  if (period.refused) return;
  if (!isDay(activity?.from) || !isDay(activity?.to)) return say($('#period-message'), '');
  const first = shortDay(activity.from, appToday);
  const last = shortDay(activity.to, appToday);
  say($('#period-message'), activity.from === activity.to ? `Showing ${first}, a UTC day.` : `Showing ${first} to ${last}, UTC days.`);
}

/** The note that the figures miss days the timer is still adding up (days kept before the day rollups were). */
function showRollups(rollups) {
  const note = $('#rollups-note');
  const adding = rollups?.complete === false;
  note.hidden = !adding;
  if (!adding) return (note.textContent = '');
  note.textContent = isDay(rollups.built_back_to)
    ? `Days before ${shortDay(rollups.built_back_to, appToday)} are still being added up, so these figures do not hold them yet.`
    : 'The days kept before the daily summaries began are still being added up, so these figures do not hold them yet.';
}

// ---- the period's headline -------------------------------------------------------------------------------------

/** The four tiles of the period: each a figure, its unit, and how it moved against the period just before. */
const HEADLINE_TILES = [
  ['people_in_period', 'person', 'people'],
  ['people_new', 'new person', 'new people'],
  ['visits', 'visit', 'visits'],
  ['page_loads', 'page load', 'page loads'],
];

function showHeadline(activity, problem) {
  const headline = activity?.headline;
  const why = problem ?? (headline && typeof headline === 'object' ? null : 'the app did not send them');
  $('#headline-why').replaceChildren(...(why ? [el('p', { className: 'failed', textContent: `Could not be read: ${why}.` })] : []));
  if (why) {
    for (const [name] of HEADLINE_TILES) {
      tile(name, null);
      $(`[data-figure="${name}"] .change`).textContent = '';
    }
    return;
  }
  const previous = activity.previous ?? {};
  // People are a sketch's estimate, each person once; when some day of the period was kept before the sketch was,
  // it misses them and is a lower bound.
  const estimate = activity.people_in_period;
  const whole = (n) => (typeof n === 'number' ? Math.round(n) : n);
  const people = whole(estimate ? estimate.estimate : headline.people);
  const error = typeof estimate?.error === 'number' ? ` (±${Math.round(estimate.error * 1000) / 10}%)` : '';
  const after = !estimate ? '' : estimate.complete === false ? ', at least: an estimate' : `, an estimate${error}`;
  const figures = { people_in_period: [people, whole(previous.people), after], people_new: [headline.people_new, previous.people_new], visits: [headline.visits, previous.visits], page_loads: [headline.page_loads, previous.page_loads] };
  for (const [name, one, many] of HEADLINE_TILES) {
    const [now, then, tail = ''] = figures[name];
    tile(name, now, one, many, tail);
    $(`[data-figure="${name}"] .change`).textContent = changeWords(now, then, periodSaid.before);
  }
}

// ---- pages and the sites that link here ------------------------------------------------------------------------

/** How many rows of a ranked list show before "Show all". */
const RANKED_SHOWN = 10;

const PAGES = {
  caption: 'Paths, most page loads first',
  head: ['Path', 'Page loads', 'Visitor-days'],
  cells: (p) => [p.path, p.page_loads, p.people],
  empty: (within) => `No page loads by people ${within}.`,
};
const ENTRY_PAGES = {
  caption: 'Entry paths, most visitor-days first',
  head: ['Path', 'Visitor-days'],
  cells: (p) => [p.path, p.people],
  empty: (within) => `No visitor-days of people ${within}.`,
};
const GOALS = {
  caption: 'Goals, most conversions first',
  head: ['Goal', 'Conversions', 'Rate', 'People ever'],
  cells: (g) => [g.goal, g.conversions, `${(g.rate * 100).toFixed(1)}%`, g.people_all_time],
  empty: () => 'No goals are set (GOALS).',
};
/** An event's props in words: "plan: pro 2, free 1; size: large 1". */
const propsWords = (props) =>
  Object.entries(props ?? {})
    .map(([key, values]) => `${key}: ${values.map((v) => `${v.value} ${v.count}`).join(', ')}`)
    .join('; ');
const EVENTS = {
  caption: 'Events, most first',
  head: ['Event', 'Count', 'Visitor-days', 'Props'],
  cells: (e) => [e.event, e.count, e.visitor_days, propsWords(e.props)],
  // The props are words, not a figure: set left, and wrapped on a phone.
  numeric: (i) => i === 1 || i === 2,
  empty: (within) => `No events by people ${within}.`,
};
const REFERRERS = {
  caption: 'Sites, most page loads first',
  head: ['Site', 'Page loads', 'Visitor-days'],
  cells: (r) => [r.host, r.page_loads, r.people],
  empty: (within) => `No page load by people came from another site ${within}.`,
};

/**
 * A ranked list as a table: the first ten rows, the rest behind a "Show all" button, and behind each name a bar as
 * long as its share of the largest. Paths and hosts are a visitor's text, and are set as text.
 */
function showRanked(id, list, problem, { caption, head, cells, empty, numeric }) {
  const body = $(`#${id}-body`);
  const why = problem ?? (Array.isArray(list) ? null : 'the app did not send them');
  if (why) return body.replaceChildren(el('p', { className: 'failed', textContent: `Could not be read: ${why}.` }));
  if (list.length === 0) return body.replaceChildren(el('p', { className: 'empty', textContent: empty(periodSaid.within) }));
  const rows = list.map(cells);
  const largest = Math.max(1, ...rows.map((row) => row[1]));
  const table = dataTable(caption, head, rows, numeric);
  table.id = `${id}-table`;
  table.classList.add('ranked');
  const trs = [...table.tBodies[0].rows];
  trs.forEach((tr, i) => tr.cells[0].style.setProperty('--share', `${Math.round((rows[i][1] / largest) * 100)}%`));
  const fold = (open) => trs.forEach((tr, i) => (tr.hidden = !open && i >= RANKED_SHOWN));
  fold(false);
  if (rows.length <= RANKED_SHOWN) return body.replaceChildren(table);
  const toggle = el('button', { type: 'button', className: 'quiet', textContent: `Show all ${rows.length}` });
  toggle.setAttribute('aria-expanded', 'false');
  toggle.setAttribute('aria-controls', table.id);
  toggle.addEventListener('click', () => {
    const open = toggle.getAttribute('aria-expanded') !== 'true';
    fold(open);
    toggle.setAttribute('aria-expanded', String(open));
    toggle.textContent = open ? `Show the first ${RANKED_SHOWN}` : `Show all ${rows.length}`;
  });
  body.replaceChildren(table, el('p', { className: 'more' }, toggle));
}

// ---- totals imported from another tool --------------------------------------------------------------------------

/** A tool's name as its makers write it ("plausible" is Plausible); one the list does not know stays as it is. */
const TOOL_NAMES = { plausible: 'Plausible' };
const toolsWords = (tools) => (Array.isArray(tools) && tools.length > 0 ? tools.map((tool) => TOOL_NAMES[tool] ?? String(tool)).join(' and ') : 'another tool');

const IMPORTED_PAGES = {
  caption: 'Imported paths, most page loads first',
  head: ['Path', 'Page loads'],
  cells: (p) => [p.path, p.page_loads],
  empty: () => 'The imported totals name no page on these days.',
};
const IMPORTED_SOURCES = {
  caption: 'Imported sources, as the tool names them, most visits first',
  head: ['Source', 'Visits'],
  cells: (s) => [s.source, s.visitor_days],
  empty: () => 'The imported totals name no source on these days.',
};
const IMPORTED_COUNTRIES = {
  caption: 'Imported countries, most visits first',
  head: ['Country', 'Visits'],
  cells: (c) => [`${countryName(c.country)} (${c.country})`, c.visitor_days],
  empty: () => 'The imported totals name no country on these days.',
};

/**
 * The period's totals imported from another tool (Plausible's export), in a panel of their own, shown only when some
 * day of the period has them: they are another tool's daily totals, not headcount's count, and people cannot be
 * rebuilt from them, so the people figures leave those days out while the visits by people hold them.
 */
function showImported(imported) {
  const shown = imported !== null && typeof imported === 'object' && isDay(imported.from) && isDay(imported.to);
  $('#imported').hidden = !shown;
  $('#headline-imported').hidden = !shown;
  if (!shown) return ($('#headline-imported').textContent = '');
  const tools = toolsWords(imported.tools);
  const span = imported.from === imported.to ? `on ${shortDay(imported.from, appToday)}` : `from ${shortDay(imported.from, appToday)} to ${shortDay(imported.to, appToday)}`;
  const days = `${imported.days} ${unitOf(imported.days, 'day', 'days')}`;
  $('#imported-tools').textContent = tools;
  $('#imported-note').textContent =
    `Daily totals counted by ${tools} before headcount began, imported for ${days} of the period (${span}): its daily visitors are visits, its pageviews page loads. ` +
    `People cannot be rebuilt from daily totals (someone who came back is in every day's total), so the people figures leave these days out and count from the first person headcount saw itself; the visits by people go back to the first imported day.`;
  $('#headline-imported').textContent = `Visits by people include the daily visitors imported from ${tools} for ${days} (${span}; see "Imported from ${tools}" below). People are not: they cannot be rebuilt from daily totals.`;
  tile('imported_visits', imported.visits, 'visit', 'visits');
  if (typeof imported.page_loads === 'number') tile('imported_page_loads', imported.page_loads, 'page load', 'page loads');
  else {
    $('[data-figure="imported_page_loads"] .figure').textContent = '–';
    $('[data-figure="imported_page_loads"] .unit').textContent = 'not in the export';
  }
  showRanked('imported-pages', imported.pages, null, IMPORTED_PAGES);
  showRanked('imported-sources', imported.sources, null, IMPORTED_SOURCES);
  showRanked('imported-countries', imported.countries, null, IMPORTED_COUNTRIES);
}

/** The ten largest of a list drawn, every one in the table. */
const SHOWN = 10;
/** The most characters an axis label's line holds, and the most lines it takes: a longer label wraps, never cut on the left. */
const LABEL_LINE = 22;
const LABEL_LINES = 6;

/**
 * A label as the lines an axis draws: broken after spaces and slashes, a word longer than a line split, at most
 * LABEL_LINES (the last ending in … when there was more; the table and the tooltip's title hold the rest).
 */
function wrapped(text) {
  const lines = [];
  let line = '';
  for (const word of String(text).split(/(?<=[ /])/)) {
    let piece = word;
    while (piece.length > 0) {
      if (line.length + piece.trimEnd().length <= LABEL_LINE) {
        line += piece;
        piece = '';
      } else if (line.trim() !== '') {
        lines.push(line.trimEnd());
        line = '';
      } else {
        lines.push(piece.slice(0, LABEL_LINE));
        piece = piece.slice(LABEL_LINE);
      }
    }
  }
  if (line.trim() !== '') lines.push(line.trimEnd());
  if (lines.length > LABEL_LINES) lines.splice(LABEL_LINES - 1, Infinity, `${lines[LABEL_LINES - 1].slice(0, LABEL_LINE - 1)}…`);
  return lines.length <= 1 ? (lines[0] ?? '') : lines;
}

/**
 * A horizontal bar chart of named counts, the largest first, its labels wrapped and the plot as tall as they need. A
 * row with a `code` (a country) has it in its own column of the table.
 */
function namedBars(name, rows, { label, empty, summary, head }) {
  const shown = rows.slice(0, SHOWN);
  const labels = shown.map((r) => wrapped(r.label));
  const lines = labels.reduce((total, l) => total + (Array.isArray(l) ? l.length : 1), 0);
  $(`[data-chart="${name}"] .plot`).style.height = lines > shown.length ? `${Math.max(12, 2 + lines * 1.15 + shown.length * 0.6)}rem` : '';
  draw(name, {
    empty: rows.length === 0 ? empty : null,
    summary,
    config: bars(labels, [{ label, data: shown.map((r) => r.value), backgroundColor: KIND_COLOURS.people }], {
      indexAxis: 'y',
      scales: { x: { beginAtZero: true, ticks: { precision: 0 } }, y: { ticks: { autoSkip: false } } },
      plugins: { legend: { display: false }, tooltip: { callbacks: { title: (items) => shown[items[0].dataIndex]?.label ?? '' } } },
    }),
    table: { head, rows: rows.map((r) => (r.code === undefined ? [r.label, r.value] : [r.label, r.code, r.value])) },
  });
}

const listWords = (rows) => rows.slice(0, 5).map((r) => `${r.label} ${r.value}`).join(', ') + (rows.length > 5 ? `, and ${rows.length - 5} more` : '');

function showCountries(countries) {
  // Named in the chart and its summary; the two-letter code the app keeps is in the table, as in the export.
  const rows = countries.map((c) => ({ label: countryName(c.country), code: c.country, value: c.visitor_days }));
  namedBars('countries', rows, {
    label: 'Visitor-days',
    empty: `No people ${periodSaid.within}.`,
    summary: `People's visitor-days by country, most first: ${listWords(rows)}.`,
    head: ['Country', 'Code', 'Visitor-days'],
  });
}

const campaignWords = (c) => [c.source ?? '(no source)', c.medium ?? '(no medium)', c.campaign ?? '(no campaign)'].join(' / ');

function showCampaigns(campaigns) {
  const rows = campaigns.map((c) => ({ label: campaignWords(c), value: c.page_loads }));
  namedBars('campaigns', rows, {
    label: 'Page loads',
    empty: `No page load by people carried a campaign tag ${periodSaid.within}.`,
    summary: `People's page loads by campaign (source / medium / campaign), most first: ${listWords(rows)}.`,
    head: ['Campaign (source / medium / campaign)', 'Page loads'],
  });
}

function showNames(name, list, what, empty) {
  const rows = list.map((n) => ({ label: makersName(n.name), value: n.visitor_days }));
  namedBars(name, rows, { label: 'Visitor-days', empty, summary: `People's visitor-days by ${what}, most first: ${listWords(rows)}.`, head: [what[0].toUpperCase() + what.slice(1), 'Visitor-days'] });
}

function showNow(result) {
  $('#now').setAttribute('aria-busy', 'false');
  const now = result.ok ? result.body : null;
  const why = !result.ok ? result.why : now.availability?.available === false ? now.availability.reason.replace(/\.$/, '') : null;
  if (why || now.people_last_30_minutes === null) {
    tile('people_last_30_minutes', null);
    failed('now-minutes', why ?? 'the store did not answer');
    failed('now-paths', why ?? 'the store did not answer');
    return;
  }
  tile('people_last_30_minutes', now.people_last_30_minutes, 'person', 'people');
  const minutes = now.by_minute;
  const people = minutes.map((m) => m.people);
  draw('now-minutes', {
    empty: now.people_last_30_minutes === 0 ? 'Nobody in the last 30 minutes.' : null,
    summary: `People each minute over the last 30 minutes: ${now.people_last_30_minutes} in all, at most ${Math.max(0, ...people)} in a minute.`,
    config: bars(minutes.map((m) => m.minute.slice(11, 16)), [{ label: 'People', data: people, backgroundColor: KIND_COLOURS.people }], { scales: { y: { beginAtZero: true, ticks: { precision: 0 } }, x: { ticks: { maxTicksLimit: 6, maxRotation: 0 } } } }),
    table: { head: ['Minute (UTC)', 'People'], rows: minutes.map((m) => [m.minute.slice(11, 16), m.people]) },
  });
  const rows = now.top_paths.map((p) => ({ label: p.path, value: p.requests }));
  namedBars('now-paths', rows, {
    label: 'Requests',
    empty: 'Nobody read a page in the last 30 minutes.',
    summary: `People's most read paths in the last 30 minutes: ${listWords(rows)}.`,
    head: ['Path', 'Requests'],
  });
}

// ---- the export ------------------------------------------------------------------------------------------------

/** The export's range, the last 30 days ending with the app's today (the card's last day) unless one is typed. */
function exportDefaults(last) {
  const today = last ?? new Date().toISOString().slice(0, 10);
  if (!$('#export-to').value) $('#export-to').value = today;
  if (!$('#export-from').value) $('#export-from').value = new Date(Date.parse(`${today}T00:00:00Z`) - 29 * 86_400_000).toISOString().slice(0, 10);
}

async function exportFigures(event) {
  event.preventDefault();
  const message = $('#export-message');
  const button = $('#export-button');
  const query = new URLSearchParams({ from: $('#export-from').value, to: $('#export-to').value, format: $('#export-format').value });
  button.disabled = true;
  say(message, 'Preparing the export…');
  try {
    const response = await fetch(`${API.export}?${query}`, { cache: 'no-store', credentials: 'same-origin' });
    if (response.status === 401) return signOut(SESSION_ENDED, true);
    if (!response.ok) {
      const body = await response.json().catch(() => null);
      return say(message, `Not exported: ${body?.error?.message ?? `the app answered ${response.status}`}.`, true);
    }
    const blob = await response.blob();
    const name = `headcount-${query.get('from')}-${query.get('to')}.${query.get('format')}`;
    const link = el('a', { href: URL.createObjectURL(blob), download: name });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
    say(message, `Exported ${name}.`);
  } catch {
    say(message, 'The app could not be reached. Check the connection and try again.', true);
  } finally {
    button.disabled = false;
  }
}

// How each reason reads in the panel: the count, then the words for it.
const LEFT_OUT_WORDS = [
  ['agent', 'crawler by agent', 'crawlers by agent'],
  ['network', 'from a data-centre network', 'from data-centre networks'],
  ['path', 'probing for secrets', 'probing for secrets'],
  ['signals', 'automated browser by its signals', 'automated browsers by their signals'],
];

/**
 * The last bar's visitor-days left out, by reason, as one sentence: "Left out today: 130 crawlers by agent, 41 from …"
 * (or "on 21 Oct" for a range that ends before today, "in Nov 2026" for a month).
 */
function showLeftOut(last) {
  const left = last?.left_out;
  const when = last?.month ? `in ${monthWords(last.month)}` : !last || last.day === appToday ? 'today' : `on ${shortDay(last.day, appToday)}`;
  const parts = left ? LEFT_OUT_WORDS.filter(([reason]) => left[reason] > 0).map(([reason, one, many]) => `${left[reason]} ${left[reason] === 1 ? one : many}`) : [];
  $('#left-out').textContent = parts.length === 0 ? `Left out ${when}: nobody.` : `Left out ${when}: ${parts.join(', ')}.`;
}

/**
 * The three kinds stacked, a bar a day; a window longer than the card reads day by day (over 400 days) comes as
 * months, and is drawn a bar a month. A day's bar picks that day for the visitors' table.
 */
function showKinds(activity) {
  const months = !activity.by_day;
  const run = months ? activity.by_month : activity.by_day;
  const keyOf = (bar) => (months ? bar.month : bar.day);
  $('#kinds-step').textContent = months ? 'month by month' : 'day by day';
  $('#kinds-unit').textContent = months ? 'by kind and month' : 'by kind';
  showLeftOut(run[run.length - 1]);
  const kinds = [
    ['people', 'People'],
    ['scanners', 'Scanners and crawlers'],
    ['self', "The site's own reads"],
  ];
  const totals = kinds.map(([kind]) => sum(run.map((d) => d[kind])));
  const pick = (event, elements) => {
    if (!months && elements.length > 0) void pickDay(run[elements[0].index].day);
  };
  const hover = (event, elements) => {
    if (event.native?.target) event.native.target.style.cursor = !months && elements.length > 0 ? 'pointer' : 'default';
  };
  draw('kinds', {
    empty: sum(totals) === 0 ? `No visitors ${periodSaid.within}.` : null,
    summary: `Visitor-days ${periodSaid.within}: ${totals[0]} of people, ${totals[1]} of scanners and crawlers, ${totals[2]} of the site's own reads.`,
    config: bars(
      run.map((d) => (months ? monthWords(d.month) : shortDay(d.day, appToday))),
      kinds.map(([kind, label]) => ({ label, data: run.map((d) => d[kind]), backgroundColor: KIND_COLOURS[kind], borderColor: '#ffffff', borderWidth: 1 })),
      { onClick: pick, onHover: hover, scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true, ticks: { precision: 0 } } } },
    ),
    table: { head: [months ? 'Month' : 'Day', 'People', 'Scanners and crawlers', "The site's own reads", 'Total'], rows: run.map((d) => [keyOf(d), d.people, d.scanners, d.self, d.total]) },
  });
}

function showHours(hours) {
  const stores = [...new Set(hours.map((h) => h.store))];
  const labels = [...new Set(hours.map((h) => h.hour))];
  const requests = (store) => labels.map((hour) => hours.find((h) => h.store === store && h.hour === hour)?.requests ?? 0);
  const hourWords = (hour) => (hour.slice(11, 13) === '00' ? `${shortDay(hour.slice(0, 10))} 00:00` : `${hour.slice(11, 13)}:00`);
  const total = sum(hours.map((h) => h.requests));
  draw('hours', {
    empty: total === 0 ? 'No requests in the last 48 hours.' : null,
    summary: `Requests in the last 48 hours: ${stores.map((store) => `${sum(requests(store))} by ${store}`).join(', ')}.`,
    config: {
      type: 'line',
      data: {
        labels: labels.map(hourWords),
        datasets: stores.map((store, i) => ({ label: store, data: requests(store), borderColor: STORE_COLOURS[i % STORE_COLOURS.length], backgroundColor: STORE_COLOURS[i % STORE_COLOURS.length], pointRadius: 2 })),
      },
      options: { scales: { y: { beginAtZero: true, ticks: { precision: 0 } }, x: { ticks: { maxTicksLimit: 8, maxRotation: 0 } } } },
    },
    table: { head: ['Hour (UTC)', ...stores], rows: labels.map((hour, i) => [hour.slice(0, 16).replace('T', ' '), ...stores.map((store) => requests(store)[i])]) },
  });
}

function showSources(sources) {
  const names = Object.keys(SOURCE_NAMES);
  const values = names.map((name) => sources?.[name] ?? 0);
  const others = sources?.other_hosts ?? [];
  draw('sources', {
    empty: sum(values) === 0 ? `No page loads by people ${periodSaid.within}.` : null,
    summary: `People's page loads by source: ${names.map((name, i) => `${SOURCE_NAMES[name]} ${values[i]}`).join(', ')}.`,
    config: bars(names.map((name) => SOURCE_NAMES[name]), [{ label: 'Page loads', data: values, backgroundColor: KIND_COLOURS.people }], { indexAxis: 'y', scales: { x: { beginAtZero: true, ticks: { precision: 0 } } } }),
    table: { head: ['Source', 'Page loads'], rows: [...names.map((name, i) => [SOURCE_NAMES[name], values[i]]), ...others.map((o) => [`Other: ${o.host}`, o.page_loads])] },
  });
}

function showPath(steps) {
  const values = steps.map((s) => s.visitor_days);
  draw('path', {
    empty: steps.length === 0 ? 'No steps are set (FUNNEL_STEPS).' : sum(values) === 0 ? `No reader took any step ${periodSaid.within}.` : null,
    summary: `People's visitor-days that reached each step: ${steps.map((s) => `${s.step} ${s.visitor_days}`).join(', ')}.`,
    config: bars(steps.map((s) => s.step), [{ label: 'Visitor-days', data: values, backgroundColor: KIND_COLOURS.people }], { indexAxis: 'y', scales: { x: { beginAtZero: true, ticks: { precision: 0 } } } }),
    table: { head: ['Step', 'Visitor-days'], rows: steps.map((s) => [`${s.step} (${s.paths.join(', ')})`, s.visitor_days]) },
  });
}

function showSubjects(result) {
  const section = $('#subjects');
  section.setAttribute('aria-busy', 'false');
  const body = $('#subjects-body');
  if (!result.ok) {
    body.replaceChildren(el('p', { className: 'failed', textContent: `Could not be read: ${result.why}.` }));
    return;
  }
  const subjects = result.body.subjects ?? [];
  if (subjects.length === 0) {
    body.replaceChildren(el('p', { className: 'empty', textContent: 'No subject has been seen yet: a page names one with data-subject on the snippet.' }));
    return;
  }
  const more = result.body.continuation ? el('p', { className: 'note', textContent: `The ${subjects.length} most scanned are shown.` }) : null;
  body.replaceChildren(subjectsTable(subjects), ...(more ? [more] : []));
}

const SUBJECT_COLUMNS = [
  ['scans', 'Scans'],
  ['unique', 'Unique visitors'],
  ['repeat', 'Repeat scans'],
  ['scanners', 'Scanners'],
  ['self', "The site's own"],
];

/** One row a subject, most scanned first: its figures as the API answers them, and its last scan in UTC. */
function subjectsTable(subjects) {
  const head = ['Subject', ...SUBJECT_COLUMNS.map(([, title]) => title), 'Last scan (UTC)'];
  // The day in the dashboard's day words, as every date it writes ("20 Oct 12:00").
  const lastScan = (at) => (typeof at === 'string' && isDay(at.slice(0, 10)) ? `${shortDay(at.slice(0, 10), appToday)} ${at.slice(11, 16)}` : '–');
  const rows = subjects.map((s) => [s.subject, ...SUBJECT_COLUMNS.map(([field]) => s[field]), lastScan(s.last_scan)]);
  const table = dataTable('Subjects, most scanned first', head, rows);
  table.id = 'subjects-table';
  return table;
}

function showMark(result) {
  $('#mark').setAttribute('aria-busy', 'false');
  const list = $('#mark-links');
  if (!result.ok) {
    list.replaceChildren(el('li', { className: 'failed', textContent: `Could not be read: ${result.why}.` }));
    return;
  }
  const links = result.body.links;
  if (links.length === 0) {
    list.replaceChildren(el('li', { textContent: "No site may send beacons yet: add your site's origin to ALLOWED_ORIGINS, and its link appears here." }));
    return;
  }
  list.replaceChildren(
    ...links.map((link) =>
      el('li', {}, el('a', { href: link.mark, textContent: `Mark this browser as mine on ${link.site}`, rel: 'noreferrer' }), ' · ', el('a', { href: link.unmark, textContent: 'remove the mark', rel: 'noreferrer' })),
    ),
  );
}

// ---- the day's visitors ----------------------------------------------------------------------------------------

/** The day the owner picked for the table; null shows the period's last day. */
let chosenDay = null;
/** The table's day, the token of its next page (null on the last), its rows so far, and the read it shows. */
const dayTable = { day: null, next: null, rows: 0, reading: 0 };

/** The day's read; the next page's token is the app's own text, passed back URL-encoded. */
const dayPath = (day, next = null) => `${API.visitors}?day=${encodeURIComponent(day)}${next ? `&next=${encodeURIComponent(next)}` : ''}`;

const KIND_WORDS = { people: 'Person', scanners: 'Scanner', self: "The site's own" };
const VISITOR_HEAD = ['Visitor', 'Seen (UTC)', 'Kind', 'Store', 'Network', 'Requests', 'Page loads', 'Paths read (requests)', 'Came from (page loads)'];
const VISITOR_NUMERIC = (i) => i === 5 || i === 6;

/** One row of the day's table. Its paths and the sites it came from are a visitor's text: list items set as text. */
function visitorCells(row) {
  const why = row.left_out ? LEFT_OUT_WORDS.find(([reason]) => reason === row.left_out)?.[1] : null;
  const kind = KIND_WORDS[row.kind] ?? String(row.kind);
  const time = (at) => (typeof at === 'string' ? at.slice(11, 16) : '–');
  const list = (items) => (items.length === 0 ? '–' : el('ul', { className: 'cell-list' }, ...items.map((text) => el('li', { textContent: text }))));
  return [
    String(row.token ?? '').slice(0, 8),
    time(row.first_seen) === time(row.last_seen) ? time(row.first_seen) : `${time(row.first_seen)} to ${time(row.last_seen)}`,
    why ? `${kind}: ${why}` : kind,
    row.store,
    row.network,
    row.requests,
    row.page_loads,
    list((row.top_paths ?? []).map((p) => `${p.path} (${p.requests})`)),
    list((row.sources ?? []).map((source) => `${source.host} (${source.page_loads})`)),
  ];
}

/** The day's table, or the next page of it added below the rows already shown; "More visitors" while there is one. */
function showDay(day, result, append = false) {
  $('#day').setAttribute('aria-busy', 'false');
  const words = $('#day-words');
  const more = $('#day-more');
  const answer = result.ok ? result.body : null;
  const when = shortDay(day, appToday);
  const why = !result.ok
    ? result.why
    : answer?.availability?.available === false
      ? answer.availability.reason.replace(/\.$/, '')
      : Array.isArray(answer?.visitors)
        ? null
        : 'the store did not answer';
  if (why && append) return say(words, `The next visitors of ${when} could not be read: ${why}.`, true);
  if (why) {
    Object.assign(dayTable, { day, next: null, rows: 0 });
    more.hidden = true;
    $('#day-body').replaceChildren(el('p', { className: 'failed', textContent: `Could not be read: ${why}.` }));
    return say(words, '');
  }
  const rows = answer.visitors.map(visitorCells);
  const next = typeof answer.next === 'string' && answer.next !== '' ? answer.next : null;
  if (append && $('#day-table')) $('#day-table tbody').append(...rows.map((row) => tableRow(row, VISITOR_NUMERIC)));
  else if (rows.length === 0) $('#day-body').replaceChildren(el('p', { className: 'empty', textContent: `No visitors on ${when}.` }));
  else {
    const table = dataTable(`Visitors on ${when}, first seen first`, VISITOR_HEAD, rows, VISITOR_NUMERIC);
    table.id = 'day-table';
    // The line above the table says the day already; the caption is for a screen reader's list of tables.
    table.caption.className = 'visually-hidden';
    $('#day-body').replaceChildren(table);
  }
  Object.assign(dayTable, { day, next, rows: (append ? dayTable.rows : 0) + rows.length });
  more.hidden = next === null;
  const count = `${figure(dayTable.rows)} ${unitOf(dayTable.rows, 'row', 'rows')}`;
  say(words, dayTable.rows === 0 ? '' : next ? `${when}: the first ${count}; there are more.` : `${when}: ${count}, every visitor of the day.`);
}

/** Shows the visitors of a day the owner picked (in the form, or a day's bar in the chart), from its first page. */
async function pickDay(day) {
  if (!isDay(day)) return say($('#day-words'), 'Type the day as a date.', true);
  chosenDay = day;
  $('#day-input').value = day;
  const mine = ++dayTable.reading;
  $('#day').setAttribute('aria-busy', 'true');
  try {
    const result = await read(dayPath(day));
    if (mine === dayTable.reading) showDay(day, result);
  } catch (error) {
    if (error instanceof SignedOut) signOut(SESSION_ENDED, true);
    else throw error;
  }
}

/** Reads the day's next page and adds it; the keyboard stays in the table when the last page has come. */
async function moreVisitors() {
  const { day, next } = dayTable;
  if (!day || !next) return;
  const button = $('#day-more');
  const mine = ++dayTable.reading;
  button.disabled = true;
  try {
    const result = await read(dayPath(day, next));
    if (mine === dayTable.reading) showDay(day, result, true);
  } catch (error) {
    if (error instanceof SignedOut) return signOut(SESSION_ENDED, true);
    throw error;
  } finally {
    button.disabled = false;
  }
  if (button.hidden) $('#day-body').focus();
}

// ---- signing in and out, and reading everything ----------------------------------------------------------------

function say(node, text, bad = false) {
  node.textContent = text;
  node.classList.toggle('bad', bad);
}

/** What the dashboard says when a read finds the session gone (it ran out, or the key was rotated). */
const SESSION_ENDED = 'The session has ended. Sign in again.';

/** Whether this page holds a session: the cookie itself is HttpOnly, so the page knows only what the app answered. */
let signedIn = false;

function showSignedIn(now) {
  signedIn = now;
  $('#sign-in').hidden = now;
  $('#dashboard').hidden = !now;
  $('#actions').hidden = !now;
}

/** Shows the sign-in form again (the session is already ended, or was never there), with why. */
function signOut(message = '', bad = false) {
  for (const chart of charts.values()) chart.destroy();
  charts.clear();
  showSignedIn(false);
  say($('#sign-in-message'), message, bad);
  $('#key').value = '';
  $('#key').focus();
}

/** Each refresh and each change of period takes the next number; the answers of an older one are dropped, never drawn over newer ones. */
let generation = 0;

/**
 * Reads every panel: the five reads at once, then the visitors of the picked day (else the period's last day, which
 * the card answers). `data-period` on the dashboard then names the period its figures are of (`days=7`).
 */
async function loadAll() {
  const mine = ++generation;
  const refresh = $('#refresh');
  refresh.disabled = true;
  say($('#status'), 'Reading the figures…');
  for (const section of document.querySelectorAll('#dashboard section[aria-busy]')) section.setAttribute('aria-busy', 'true');
  // A panel that shows nothing yet says it is loading; one already drawn keeps its figures until the new ones come.
  const loading = () => el('p', { className: 'loading', textContent: 'Loading…' });
  for (const plot of document.querySelectorAll('[data-chart]:not([data-drawn]) .plot')) plot.replaceChildren(loading());
  for (const id of ['pages', 'entry-pages', 'referrers', 'goals', 'events', 'day']) if (!$(`#${id}-table`)) $(`#${id}-body`).replaceChildren(loading());
  if (!$('#subjects-table')) $('#subjects-body').replaceChildren(loading());
  if (!$('#mark-links a')) $('#mark-links').replaceChildren(el('li', {}, loading()));
  $('#dashboard').setAttribute('data-state', 'loading');
  const query = activityQuery(period);
  try {
    const [people, activity, subjects, mark, now] = await Promise.all([read(API.people), read(`${API.activity}?${query}`), read(API.subjects), read(API.mark), read(API.now)]);
    if (mine !== generation) return;
    const answered = activity.ok && isDay(activity.body?.to) ? activity.body.to : null;
    appToday = lastOf(people.ok ? people.body.people_new_by_day : null) ?? (period.from ? null : answered) ?? appToday ?? todayUtc();
    showPeople(people);
    showActivity(activity);
    showSubjects(subjects);
    showMark(mark);
    showNow(now);
    exportDefaults(answered);
    const day = chosenDay ?? answered ?? period.to ?? appToday;
    $('#day-input').value = day;
    const reading = ++dayTable.reading;
    const visitors = await read(dayPath(day));
    if (mine !== generation) return;
    if (reading === dayTable.reading) showDay(day, visitors);
    const reads = [people, activity, subjects, mark, now, visitors];
    const failures = reads.filter((r) => !r.ok).length;
    const at = new Date().toISOString().slice(11, 19);
    say($('#status'), failures === 0 ? `Read at ${at} UTC.` : `Read at ${at} UTC; ${failures} of ${reads.length} reads failed, and their panels say why.`, failures > 0);
    $('#dashboard').setAttribute('data-period', query);
    $('#dashboard').setAttribute('data-state', failures === 0 ? 'ready' : 'partial');
  } catch (error) {
    if (error instanceof SignedOut) signOut(SESSION_ENDED, true);
    else throw error;
  } finally {
    if (mine === generation) refresh.disabled = false;
  }
}

const secondsWords = (n) => `${n} ${unitOf(n, 'second', 'seconds')}`;

/**
 * Why the app refused a key, in words: a wrong key (and, once its free tries are spent, how long this address now
 * waits), or the wait itself (429), both read from Retry-After, as the app states its slowdown.
 */
function refusedWords(response) {
  const wait = Number(response.headers.get('retry-after'));
  const waits = Number.isInteger(wait) && wait > 0;
  if (response.status === 429) return `Too many wrong keys from this address: the next try is checked in ${secondsWords(waits ? wait : 1)}.`;
  if (response.status === 401) {
    const base = 'That key was not accepted. Check the operator key and try again.';
    return waits ? `${base} This address now waits ${secondsWords(wait)} before its next try.` : base;
  }
  return `The app answered ${response.status}; try again in a moment.`;
}

/**
 * Signs in: the key goes to the app once, which answers with a session (an HttpOnly cookie this page cannot read),
 * and the page forgets it. Nothing of the key is kept in sessionStorage, localStorage or a readable cookie.
 */
async function signIn(event) {
  event.preventDefault();
  const input = $('#key');
  const key = input.value.trim();
  const message = $('#sign-in-message');
  if (!key) return say(message, 'Type the operator key first.', true);
  const button = $('#sign-in-button');
  button.disabled = true;
  say(message, 'Checking the key…');
  try {
    const response = await fetch(API.session, { method: 'POST', headers: { authorization: `Bearer ${key}` }, cache: 'no-store', credentials: 'same-origin' });
    if (!response.ok) return say(message, refusedWords(response), true);
    input.value = '';
    say(message, '');
    showSignedIn(true);
    $('#main').focus();
    await loadAll();
  } catch {
    say(message, 'The app could not be reached. Check the connection and try again.', true);
  } finally {
    button.disabled = false;
  }
}

/** Signs out: the app removes the session's cookie; the sign-in form comes back whether or not the app could be reached. */
async function signOutNow() {
  try {
    await fetch(API.session, { method: 'DELETE', cache: 'no-store', credentials: 'same-origin' });
  } catch {
    // Unreachable: the session still ends on its own after its hours unused.
  }
  signOut('Signed out.');
}

/** On load: a session this browser already holds (a reload, a bookmark) reads at once; otherwise the form waits for the key. */
async function resume() {
  try {
    const response = await fetch(API.session, { cache: 'no-store', credentials: 'same-origin' });
    const body = await response.json().catch(() => null);
    if (response.ok && body?.signed_in === true) {
      showSignedIn(true);
      void loadAll();
    } else if (body?.ended === true) say($('#sign-in-message'), SESSION_ENDED);
  } catch {
    // The app unreachable: signing in says so.
  }
}

$('#sign-in-form').addEventListener('submit', signIn);
$('#refresh').addEventListener('click', () => void loadAll());
$('#sign-out').addEventListener('click', () => void signOutNow());
$('#export-form').addEventListener('submit', (event) => void exportFigures(event));
$('#period-form').addEventListener('change', (event) => choosePeriod({ name: event.target.value }));
$('#range-form').addEventListener('submit', chooseRange);
$('#day-form').addEventListener('submit', (event) => {
  event.preventDefault();
  void pickDay($('#day-input').value);
});
$('#day-more').addEventListener('click', () => void moreVisitors());
window.addEventListener('popstate', followAddress);

followAddress();
void resume().finally(() => document.body.setAttribute('data-ready', 'true'));
