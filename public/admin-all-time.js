// @ts-check
// Since counting began (all time, not of the period): headcount's own count of people, each once, and the visits,
// bots and scanners left out, and new people today and this month.
import { $, el } from './admin-dom.js';
import { panelSection } from './admin-panel.js';
import { tile } from './admin-headline.js';
import { state } from './admin-state.js';
import { shortDay } from './admin-words.js';

/** The count's tiles and their names. */
const TILES = /** @type {const} */ ([
  ['all_people', 'People'],
  ['all_visits', 'Visits'],
  ['all_scanners', 'Bots and scanners left out'],
  ['all_new_today', 'New today'],
  ['all_new_month', 'New this month'],
]);
const FIGURES = TILES.map(([figure]) => figure);

export function showAllTime() {
  const read = state.answers.people;
  if (!read?.ok) {
    for (const name of FIGURES) tile(name, null);
    $('#all-time-source').textContent = '';
    return;
  }
  const count = read.body;
  const today = count.people_new_by_day?.at(-1)?.day ?? null;
  const since = count.counted_from ? `since ${shortDay(count.counted_from, today)}` : 'none yet';
  tile('all_people', count.people_all_time, since);
  tile('all_scanners', count.scanners_left_out, since);
  tile('all_new_today', count.people_new_today, 'people');
  tile('all_new_month', count.people_new_month, 'people');
  if (count.visits) tile('all_visits', count.visits.all_time, `since ${shortDay(count.visits.from, today)}`);
  else {
    tile('all_visits', null);
    $('[data-figure="all_visits"] .change').textContent = 'not counted yet';
  }
  // Visits that began before the first person are another tool's daily totals (npm run import, docs/import.md).
  const imported = count.visits && (count.counted_from === null || count.visits.from < count.counted_from);
  $('#all-time-source').textContent =
    `Read from: ${count.source}.` +
    (imported && count.visits
      ? ` Visits from ${shortDay(count.visits.from, today)} include daily totals imported from another tool; people cannot be counted from daily totals, so people are counted ${count.counted_from ? `from ${shortDay(count.counted_from, today)}` : 'from the first logged day'}.`
      : '');
}

/** A tile of the count, its figure a dash until drawn. */
function countTile(/** @type {string} */ figure, /** @type {string} */ name) {
  const node = el(
    'div',
    { className: 'tile' },
    el('dt', { className: 'tile-name', textContent: name }),
    el('dd', { className: 'tile-figure' }, el('span', { className: 'figure', textContent: '–' })),
    el('dd', { className: 'change' }),
  );
  node.dataset.figure = figure;
  return node;
}

/** @type {import('./admin-panel.js').Panel} */
export const allTimePanel = {
  markup: () =>
    panelSection({
      id: 'all-time',
      title: 'Since counting began',
      note: 'all time',
      adminOnly: true,
      aboutWhat: 'About the count',
      about:
        "headcount's own count: each person counted once however often they come back, since the first person was seen. Bots and scanners (crawlers, probes, data-centre networks) and your own visits are never people. Retention: each row is the people first counted in a month (or week) and the share of them who came in that month and in each after, each person once a month; the darker the cell, the more came back. Imported logs count from each person's first logged day. Estimates within 2 %.",
      tabs: [
        {
          id: 'all-count',
          label: 'The count',
          content: () => [
            el('dl', { className: 'tiles small' }, ...TILES.map(([figure, name]) => countTile(figure, name))),
            el('p', { className: 'source', id: 'all-time-source' }),
          ],
        },
        { id: 'retention-months', label: 'Retention by month', wide: true },
        { id: 'retention-weeks', label: 'By week', wide: true },
      ],
    }),
};
