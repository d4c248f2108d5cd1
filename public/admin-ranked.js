// @ts-check
// A panel's ranked list: a table whose rows each carry a bar as long as their share of the largest, the first ten shown
// and the rest behind "Show all". A row of a filterable dimension is a button: a click on it (or Enter) adds the filter.
import { dataTable, el, emptyNote, failedNote } from './admin-dom.js';
import { DIMENSIONS } from './admin-state.js';

/** How many rows of a list show before "Show all". */
export const SHOWN = 10;

/**
 * @typedef {object} RankedRow
 * @property {string} label what the row names, as text
 * @property {(number | string)[]} values its figures (the first is the bar's), or words
 * @property {{ dimension: import('./admin-state.js').Dimension, value: string }} [filter] the filter a click adds
 */

/**
 * @typedef {object} RankedList
 * @property {string} id the table's id
 * @property {string} caption the table's caption, for a screen reader's list of tables
 * @property {string[]} head the columns' titles
 * @property {RankedRow[] | null} rows the rows, most first; null when the app did not send them
 * @property {string} empty what to say when there are none
 * @property {(i: number) => boolean} [numeric] which columns are figures
 */

/** The list as a table in `body`, or why there is none. */
export function showRanked(/** @type {HTMLElement} */ body, /** @type {RankedList} */ list, /** @type {string | null} */ problem) {
  const why = problem ?? (list.rows ? null : 'the app did not send them');
  if (why || !list.rows) return body.replaceChildren(failedNote(why ?? ''));
  if (list.rows.length === 0) return body.replaceChildren(emptyNote(list.empty));
  const rows = list.rows;
  const largest = Math.max(1, ...rows.map((row) => (typeof row.values[0] === 'number' ? row.values[0] : 0)));
  const table = dataTable(
    list.caption,
    list.head,
    rows.map((row) => [row.filter ? filterButton(row.label, row.filter) : row.label, ...row.values]),
    list.numeric,
  );
  table.id = list.id;
  table.classList.add('ranked');
  table.caption?.classList.add('visually-hidden');
  const trs = [...table.tBodies[0].rows];
  trs.forEach((tr, i) => {
    const first = rows[i].values[0];
    tr.style.setProperty('--share', `${Math.round(((typeof first === 'number' ? first : 0) / largest) * 100)}%`);
    if (rows[i].filter) tr.classList.add('filterable');
  });
  const fold = (/** @type {boolean} */ open) => trs.forEach((tr, i) => (tr.hidden = !open && i >= SHOWN));
  fold(false);
  if (rows.length <= SHOWN) return body.replaceChildren(table);
  const toggle = el('button', { type: 'button', className: 'quiet', textContent: `Show all ${rows.length}` });
  toggle.setAttribute('aria-expanded', 'false');
  toggle.setAttribute('aria-controls', table.id);
  toggle.addEventListener('click', () => {
    const open = toggle.getAttribute('aria-expanded') !== 'true';
    fold(open);
    toggle.setAttribute('aria-expanded', String(open));
    toggle.textContent = open ? `Show the first ${SHOWN}` : `Show all ${rows.length}`;
  });
  body.replaceChildren(table, el('p', { className: 'more' }, toggle));
}

/** The row's name as a button that adds its filter; the value rides in data attributes, never in markup. */
function filterButton(/** @type {string} */ label, /** @type {NonNullable<RankedRow['filter']>} */ filter) {
  const button = el('button', { type: 'button', className: 'filter', textContent: label });
  button.dataset.dimension = filter.dimension;
  button.dataset.value = filter.value;
  button.title = `Show only visits with ${DIMENSIONS[filter.dimension].name.toLowerCase()} ${label}`;
  return button;
}
