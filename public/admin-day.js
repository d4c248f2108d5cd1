// @ts-check
// The visitors of a day, a row each (the period's last day, or one picked in the form): what each read and where it
// came from. Nothing here names anyone: a visitor is a daily token, and a network is cut short. Read when opened.
import { $, dataTable, el, say, tableRow } from './admin-dom.js';
import { API, read } from './admin-read.js';
import { state } from './admin-state.js';
import { countWords, isDay, shortDay } from './admin-words.js';

/** @typedef {import('./admin-state.js').DayAnswer} DayAnswer */
/** @typedef {NonNullable<DayAnswer['visitors']>[number]} VisitorRow */

/** The table's day, the token of its next page (null on the last), its rows so far, and the read it shows. */
const table = { day: /** @type {string | null} */ (null), next: /** @type {string | null} */ (null), rows: 0, reading: 0 };

/** The day's read; the next page's token is the app's own text, passed back URL-encoded. */
const dayPath = (/** @type {string} */ day, /** @type {string | null} */ next = null) =>
  `${API.visitors}?day=${encodeURIComponent(day)}${next ? `&next=${encodeURIComponent(next)}` : ''}`;

const WHO_WORDS = { people: 'Person', scanners: 'Bot or scanner', self: 'You' };
const LEFT_OUT = {
  agent: 'crawler by agent',
  network: 'from a data-centre network',
  path: 'probing for secrets',
  signals: 'automated browser by its signals',
};
const HEAD = [
  'Visitor',
  'Seen (UTC)',
  'Who',
  'Served by',
  'Network',
  'Requests',
  'Pageviews',
  'Pages read (requests)',
  'Came from (pageviews)',
];
const NUMERIC = (/** @type {number} */ i) => i === 5 || i === 6;

/** One row of the table. Its paths and the sites it came from are a visitor's text: list items set as text. */
function cells(/** @type {VisitorRow} */ row) {
  const why = row.left_out ? LEFT_OUT[row.left_out] : null;
  const kind = WHO_WORDS[row.kind] ?? String(row.kind);
  const time = (/** @type {string} */ at) => at.slice(11, 16);
  const list = (/** @type {string[]} */ items) =>
    items.length === 0 ? '–' : el('ul', { className: 'cell-list' }, ...items.map((text) => el('li', { textContent: text })));
  return [
    row.token.slice(0, 8),
    time(row.first_seen) === time(row.last_seen) ? time(row.first_seen) : `${time(row.first_seen)} to ${time(row.last_seen)}`,
    why ? `${kind}: ${why}` : kind,
    row.store,
    row.network,
    row.requests,
    row.page_loads,
    list(row.top_paths.map((p) => `${p.path} (${p.requests})`)),
    list(row.sources.map((source) => `${source.host} (${source.page_loads})`)),
  ];
}

/** The day's table, or the next page of it added below the rows already shown; "More visitors" while there is one. */
function showDay(/** @type {string} */ day, /** @type {import('./admin-state.js').Read<DayAnswer>} */ result, append = false) {
  $('#day').setAttribute('aria-busy', 'false');
  const words = $('#day-words');
  const more = $('#day-more');
  const answer = result.ok ? result.body : null;
  const when = shortDay(day, state.appToday);
  $('#day-title-day').textContent = when;
  const why = !result.ok
    ? result.why
    : answer?.availability.available === false
      ? answer.availability.reason.replace(/\.$/, '')
      : answer?.visitors
        ? null
        : 'the store did not answer';
  if (why && append) return say(words, `The next visitors of ${when} could not be read: ${why}.`, true);
  if (why || !answer?.visitors) {
    Object.assign(table, { day, next: null, rows: 0 });
    more.hidden = true;
    $('#day-body').replaceChildren(el('p', { className: 'failed', textContent: `Could not be read: ${why}.` }));
    return say(words, '');
  }
  const rows = answer.visitors.map(cells);
  const next = answer.next ? answer.next : null;
  const shown = document.querySelector('#day-table tbody');
  if (append && shown) shown.append(...rows.map((row) => tableRow(row, NUMERIC)));
  else if (rows.length === 0) $('#day-body').replaceChildren(el('p', { className: 'empty', textContent: `No visitors on ${when}.` }));
  else {
    const made = dataTable(`Visitors on ${when}, first seen first`, HEAD, rows, NUMERIC);
    made.id = 'day-table';
    // The line above the table says the day already; the caption is for a screen reader's list of tables.
    made.caption?.classList.add('visually-hidden');
    $('#day-body').replaceChildren(made);
  }
  Object.assign(table, { day, next, rows: (append ? table.rows : 0) + rows.length });
  more.hidden = next === null;
  const count = countWords(table.rows, 'row', 'rows');
  say(
    words,
    table.rows === 0 ? '' : next ? `${when}: the first ${count}; there are more.` : `${when}: ${count}, every visitor of the day.`,
  );
}

/** The day the table shows: the one picked, else the period's last day (the card answers it), else the app's today. */
export function tableDay() {
  const card = state.answers.card?.ok ? state.answers.card.body : null;
  return state.day ?? (isDay(card?.to) ? card?.to : null) ?? state.appToday ?? new Date().toISOString().slice(0, 10);
}

/** Reads the visitors of the table's day from its first page, when the panel is open. */
export async function loadDay() {
  const day = tableDay();
  /** @type {HTMLInputElement} */ ($('#day-input')).value = day;
  $('#day-title-day').textContent = shortDay(day, state.appToday);
  if (!(/** @type {HTMLDetailsElement} */ ($('#day')).open)) return;
  const mine = ++table.reading;
  $('#day').setAttribute('aria-busy', 'true');
  const result = await read(dayPath(day));
  if (mine === table.reading) showDay(day, /** @type {import('./admin-state.js').Read<DayAnswer>} */ (result));
}

/** Reads the day's next page and adds it; the keyboard stays in the table when the last page has come. */
async function moreVisitors() {
  const { day, next } = table;
  if (!day || !next) return;
  const button = /** @type {HTMLButtonElement} */ ($('#day-more'));
  const mine = ++table.reading;
  button.disabled = true;
  try {
    const result = await read(dayPath(day, next));
    if (mine === table.reading) showDay(day, /** @type {import('./admin-state.js').Read<DayAnswer>} */ (result), true);
  } finally {
    button.disabled = false;
  }
  if (button.hidden) $('#day-body').focus();
}

/** @param {(work: Promise<void>) => void} guarded runs a read, signing out when the session has gone */
export function wireDay(guarded) {
  $('#day').addEventListener('toggle', () => guarded(loadDay()));
  $('#day-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const day = /** @type {HTMLInputElement} */ ($('#day-input')).value.trim();
    if (!isDay(day)) return say($('#day-words'), 'Type the day as YYYY-MM-DD.', true);
    state.day = day;
    guarded(loadDay());
  });
  $('#day-more').addEventListener('click', () => guarded(moreVisitors()));
}
