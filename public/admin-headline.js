// @ts-check
// The first screen's tiles: the period's people (each counted once), the people all time beside them (not of the
// period, and titled so), visits, pageviews, bounce rate, visit duration, conversions when goals exist, each with its
// change on the period just before, and who is on the site now. Visits and pageviews pick the figure the main chart draws.
import { $ } from './admin-dom.js';
import { state } from './admin-state.js';
import { changeWords, durationWords, figure, pointsWords, shortDay } from './admin-words.js';
import { periodWords } from './admin-picker.js';

/** @typedef {import('./admin-state.js').Card} Card */

/** Sets a tile's figure (0 is 0; a dash when unread) and the line under it. */
export function tile(
  /** @type {string} */ name,
  /** @type {number | null | undefined} */ n,
  /** @type {string} */ line = '',
  /** @type {(n: number) => string} */ words = figure,
) {
  const node = $(`[data-figure="${name}"]`);
  $('.figure', node).textContent = typeof n === 'number' ? words(n) : '–';
  $('.change', node).textContent = typeof n === 'number' ? line : 'not read';
}

/** Bounce rate and visit duration: a dash and why when no visit of the period is timed. */
function showTime(
  /** @type {NonNullable<Card['headline']>} */ headline,
  /** @type {Card['previous']} */ previous,
  /** @type {string | null} */ before,
) {
  const since = headline.time_on_site_from ? `; counted from ${shortDay(headline.time_on_site_from, null)}` : '';
  const rate = headline.bounce_rate;
  tile('bounce_rate', rate, `${pointsWords(rate, previous?.bounce_rate, before)}${since}`, (n) => `${n}%`);
  const duration = headline.visit_duration;
  tile('visit_duration', duration, `${changeWords(duration, previous?.visit_duration, before)}${since}`, durationWords);
  if (rate === null)
    for (const name of ['bounce_rate', 'visit_duration']) $(`[data-figure="${name}"] .change`).textContent = 'no visit timed';
}

/** The period's tiles from the card, or dashes and why when it could not be read. */
export function showHeadline(/** @type {Card | null} */ card, /** @type {string | null} */ problem) {
  const headline = card?.headline;
  const why = problem ?? (headline ? null : 'the app did not send them');
  $('#headline-why').textContent = why ? `The period's figures could not be read: ${why}.` : '';
  $('#headline-why').hidden = !why;
  const conversions = $('[data-figure="conversions"]');
  if (why || !card || !headline) {
    for (const name of ['people', 'returning', 'visits', 'page_loads', 'bounce_rate', 'visit_duration', 'conversions']) tile(name, null);
    $('[data-figure="people"] .qualifier').textContent = '';
    return;
  }
  const before = periodWords(state.view.period, card).before;
  const previous = card.previous;
  // People are a sketch's estimate, each person once; a day kept before the sketch makes it a lower bound.
  const estimate = card.people_in_period;
  const people = Math.round(estimate ? estimate.estimate : headline.people);
  $('[data-figure="people"] .qualifier').textContent = estimate?.complete === false ? 'at least' : '';
  tile('people', people, changeWords(people, previous ? Math.round(previous.people) : null, before));
  // Returning: who came on a day of the period after their first, as the chart's days; the new beside them may be too.
  const returning = Math.round(headline.returning);
  const fresh = headline.people_new === null ? null : Math.round(headline.people_new);
  tile(
    'returning',
    returning,
    `${fresh === null ? 'new not known' : `${figure(fresh)} new`}; ${changeWords(returning, previous ? Math.round(previous.returning) : null, before)}`,
  );
  tile('visits', headline.visits, changeWords(headline.visits, previous?.visits, before));
  tile('page_loads', headline.page_loads, changeWords(headline.page_loads, previous?.page_loads, before));
  showTime(headline, previous, before);
  const goals = card.goals ?? [];
  conversions.hidden = goals.length === 0;
  const converted = headline.conversions ?? goals.reduce((total, goal) => total + goal.conversions, 0);
  tile('conversions', converted, changeWords(converted, previous?.conversions, before));
}

/** People all time, since counting began: headcount's own number, beside the period's people. */
export function showAllTimePeople() {
  const read = state.answers.people;
  if (!read?.ok) return tile('people_all_time', null);
  const count = read.body;
  const today = count.people_new_by_day?.at(-1)?.day ?? null;
  if (count.people_all_time === null) {
    tile('people_all_time', null);
    if (count.source.startsWith('not counted yet')) $('[data-figure="people_all_time"] .change').textContent = 'not counted yet';
    return;
  }
  tile('people_all_time', count.people_all_time, count.counted_from ? `since ${shortDay(count.counted_from, today)}` : 'none yet');
}

/** Visitors now: the last 30 minutes, not of the period. */
export function showNowTile() {
  const read = state.answers.now;
  const n = read?.ok ? read.body.people_last_30_minutes : null;
  tile('now', n, 'in the last 30 minutes');
}

/** The tile the main chart draws is pressed. */
export function showFigureChoice() {
  for (const button of document.querySelectorAll('[data-pick-figure]'))
    button.setAttribute('aria-pressed', String(button.getAttribute('data-pick-figure') === state.figure));
}
