// @ts-check
// Retention, in the panel of the count since it began: for each month (or week) people were first counted in, the share of them who came in it and in each
// later one, a cohort a row, shaded by the share, so a site owner sees at a glance who comes back and for how long.
import { $, dataTable, el, emptyNote, failedNote } from './admin-dom.js';
import { state } from './admin-state.js';
import { monthWords, shortDay } from './admin-words.js';

/** @typedef {import('../shared/contract/retention').RetentionAnswer} RetentionAnswer */

/** A cell of the table: the share as a percentage, shaded by it, the people it is of in its title. */
function shareCell(/** @type {{ people: number, share: number }} */ cell) {
  const percent = Math.round(cell.share * 100);
  const node = el('span', {
    className: 'share',
    textContent: `${percent}%`,
    title: `${cell.people} ${cell.people === 1 ? 'person' : 'people'}`,
  });
  node.style.setProperty('--share', String(cell.share));
  return node;
}

/**
 * One table of cohorts: the cohort's name and people, then the shares of its own and each later month or week, by how
 * long after it (a cohort's first is 100% of those who came, unless a filter counts some of them only).
 * @param {string} id
 * @param {string} caption
 * @param {string} unit
 * @param {{ name: string, people: number, later: { people: number, share: number }[] }[]} rows
 */
function cohortTable(id, caption, unit, rows) {
  const span = Math.max(0, ...rows.map((row) => row.later.length));
  const head = ['First came', 'People', ...Array.from({ length: span }, (_, i) => (i === 0 ? `${unit} 0` : `+${i}`))];
  const table = dataTable(
    caption,
    head,
    rows.map((row) => [
      row.name,
      row.people,
      // A cohort of nobody has no shares: a dash, not 0%.
      ...row.later.map((cell) => (row.people === 0 ? '–' : shareCell(cell))),
      ...Array.from({ length: span - row.later.length }, () => ''),
    ]),
  );
  table.caption?.classList.add('visually-hidden');
  table.id = id;
  table.classList.add('cohorts');
  return table;
}

/** Retention from its read, or why it could not be read. */
export function showRetention() {
  const read = state.answers.retention;
  const why = !read
    ? 'not read yet'
    : !read.ok
      ? read.why
      : read.body.cohorts === null
        ? read.body.availability.reason.replace(/\.$/, '')
        : null;
  const months = $('#retention-months-body');
  const weeks = $('#retention-weeks-body');
  if (why || !read?.ok || !read.body.cohorts) {
    months.replaceChildren(failedNote(why ?? 'the app did not send it'));
    weeks.replaceChildren(failedNote(why ?? 'the app did not send it'));
    return;
  }
  const { cohorts, weeks: weekly } = read.body;
  // Months before the first person was counted are left out: a young site's table starts with its first cohort.
  const first = cohorts.findIndex((c) => c.people > 0);
  const monthRows = cohorts.slice(Math.max(0, first)).map((c) => ({ name: monthWords(c.cohort), people: c.people, later: c.months }));
  const weekRows = (weekly ?? []).map((c) => ({ name: `Week of ${shortDay(c.cohort, state.appToday)}`, people: c.people, later: c.weeks }));
  const anyone = (/** @type {{ people: number }[]} */ rows) => rows.some((row) => row.people > 0);
  const filtered = state.view.filters.length > 0 ? ' on a visitor-day the filter keeps' : '';
  months.replaceChildren(
    anyone(monthRows)
      ? cohortTable(
          'retention-months',
          `The people first counted each month, and the share of them who came in each month after${filtered}`,
          'Month',
          monthRows,
        )
      : emptyNote('Nobody has been counted yet in these months.'),
  );
  weeks.replaceChildren(
    weekly === null
      ? emptyNote('Retention by week is kept without filters only: clear the filter to see it.')
      : anyone(weekRows)
        ? cohortTable(
            'retention-weeks',
            `The people first counted each week, and the share of them who came in each week after${filtered}`,
            'Week',
            weekRows,
          )
        : emptyNote('Nobody has been counted yet in these weeks.'),
  );
}
