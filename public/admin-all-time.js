// @ts-check
// Since counting began (all time, not of the period): headcount's own count of people, each once, and the visits,
// bots and scanners left out, and new people today and this month.
import { $ } from './admin-dom.js';
import { tile } from './admin-headline.js';
import { state } from './admin-state.js';
import { shortDay } from './admin-words.js';

const FIGURES = ['all_people', 'all_visits', 'all_scanners', 'all_new_today', 'all_new_month'];

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
