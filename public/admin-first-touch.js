// @ts-check
// First touch, in the Goals panel: where the people who reached each goal first came from (their first visit's source,
// site and campaign), with their conversions, and how many days after that first visit they first converted.
import { $, dataTable, el, emptyNote, failedNote } from './admin-dom.js';
import { SOURCE_NAMES } from './admin-words.js';

/** @typedef {import('./admin-state.js').Card} Card */

const BUCKETS = /** @type {const} */ ([
  ['0', 'same day'],
  ['1', 'next day'],
  ['2-7', '2–7 days'],
  ['8-30', '8–30 days'],
  ['31+', '31 days or more'],
]);

/** A source group's name as the Sources panel says it. */
const sourceName = (/** @type {string} */ name) => SOURCE_NAMES[/** @type {keyof typeof SOURCE_NAMES} */ (name)] ?? name;

export function showFirstTouch(/** @type {Card | null} */ card, /** @type {string | null} */ problem) {
  const body = $('#first-touch-body');
  const why = problem ?? (card?.goals ? null : 'the app did not send them');
  if (why || !card?.goals) return body.replaceChildren(failedNote(why ?? ''));
  if (card.goals.length === 0) return body.replaceChildren(emptyNote('No goals are set (GOALS).'));
  const parts = card.goals.flatMap((goal) => {
    const touch = goal.first_touch;
    const sources = dataTable(
      `${goal.goal}: its people ever and their conversions, by where they first came from`,
      ['First came from', 'People', 'Conversions'],
      touch.sources.map((row) => [sourceName(row.name), row.people, row.conversions]),
    );
    sources.id = `first-touch-${goal.goal}`;
    sources.caption?.classList.add('visually-hidden');
    const days = dataTable(
      `${goal.goal}: its people by the days from their first visit to their first conversion`,
      ['First converted', ...BUCKETS.map(([, words]) => words)],
      [['People', ...BUCKETS.map(([bucket]) => touch.days_to_convert[bucket])]],
    );
    days.classList.add('days-to-convert');
    days.caption?.classList.add('visually-hidden');
    return [el('h3', { textContent: goal.goal }), touch.sources.length === 0 ? emptyNote('Nobody has reached it yet.') : sources, days];
  });
  body.replaceChildren(...parts);
}
