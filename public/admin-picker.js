// @ts-check
// The period picker at the top of the page, which stays in view as the page scrolls: the named periods as one radio
// group (arrow keys move along it), a custom range of days, and keys as Plausible has them (t, w, m, q, y, a, c).
import { $, say } from './admin-dom.js';
import { go, periodAllowed, PERIODS, state } from './admin-state.js';
import { addDays, daysFrom, isDay, shortDay } from './admin-words.js';

/** @typedef {import('./admin-state.js').Period} Period */
/** @typedef {import('./admin-state.js').Card} Card */

/**
 * How a period reads: `words` end a caption ("the last 7 days", "18 Oct to 21 Oct", "since 18 Oct"), `within` ends a
 * sentence ("No visits in the last 7 days."), `before` names the period of the same length just before. A range and
 * all time are said from the days the card answered, so the words always name what is drawn.
 * @param {Period} period
 * @param {Card | null} card
 */
export function periodWords(period, card) {
  const today = state.appToday;
  const days = (/** @type {string} */ from, /** @type {string} */ to) => {
    const first = shortDay(from, today);
    const last = shortDay(to, today);
    const length = daysFrom(from, to);
    const before = length === 1 ? 'the day before' : `the ${length} days before`;
    return from === to
      ? { words: first, within: `on ${first}`, before }
      : { words: `${first} to ${last}`, within: `from ${first} to ${last}`, before };
  };
  if ('from' in period)
    return card && isDay(card.from) && isDay(card.to) ? days(card.from ?? '', card.to ?? '') : days(period.from, period.to);
  if (period.name === 'all') {
    const words = card && isDay(card.from) ? `since ${shortDay(card.from ?? '', today)}` : 'all time';
    return { words, within: words, before: null };
  }
  const { words, before } = PERIODS[period.name];
  return { words, within: words === 'today' ? words : `in ${words}`, before };
}

const radios = () => /** @type {HTMLInputElement[]} */ ([...document.querySelectorAll('input[name="period"]')]);

/** Checks the period's choice ("Custom" for a range, which then names its days) and fills the range's two days. */
export function showPicker(/** @type {Card | null} */ card = null) {
  const { period } = state.view;
  const chosen = 'from' in period ? 'custom' : period.name;
  for (const radio of radios()) {
    radio.checked = radio.value === chosen;
    // A shared link's fixed period is the only one its viewer is offered.
    /** @type {HTMLElement} */ (radio.closest('label')).hidden = !periodAllowed(
      /** @type {import('./admin-state.js').PeriodName} */ (radio.value),
    );
  }
  $('#custom-words').textContent = 'from' in period ? periodWords(period, card).words : 'Custom';
  const from = 'from' in period ? period.from : card?.from;
  const to = 'from' in period ? period.to : card?.to;
  if (isDay(from) && isDay(to)) {
    /** @type {HTMLInputElement} */ ($('#range-from')).value = from ?? '';
    /** @type {HTMLInputElement} */ ($('#range-to')).value = to ?? '';
  }
}

/** Opens the range's two days, the first focused; the period changes once they are sent. */
function openRange() {
  $('#range-form').hidden = false;
  $('#range-from').focus();
}

function closeRange() {
  $('#range-form').hidden = true;
  showPicker(state.answers.card?.ok ? state.answers.card.body : null);
}

function choose(/** @type {string} */ value) {
  if (!periodAllowed(/** @type {import('./admin-state.js').PeriodName | 'custom'} */ (value))) return;
  if (value === 'custom') return openRange();
  $('#range-form').hidden = true;
  go({ period: { name: /** @type {import('./admin-state.js').PeriodName} */ (value) }, filters: state.view.filters });
}

function chooseRange(/** @type {SubmitEvent} */ event) {
  event.preventDefault();
  const from = /** @type {HTMLInputElement} */ ($('#range-from')).value.trim();
  const to = /** @type {HTMLInputElement} */ ($('#range-to')).value.trim();
  const message = $('#period-message');
  if (!isDay(from) || !isDay(to)) return say(message, 'Type both days of the range as YYYY-MM-DD, the first and the last.', true);
  if (from > to) return say(message, 'The first day of the range must not be after the last.', true);
  $('#range-form').hidden = true;
  go({ period: { from, to }, filters: state.view.filters });
}

/** Keys that pick a period, as Plausible's: never while typing, nor with a modifier (the browser's own keys). */
function shortcut(/** @type {KeyboardEvent} */ event) {
  if (!(state.signedIn || state.shared) || event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
  const target = /** @type {HTMLElement} */ (event.target);
  if (target.closest('input:not([type="radio"]), select, textarea, [contenteditable]')) {
    if (event.key === 'Escape' && target.closest('#range-form')) closeRange();
    return;
  }
  const key = event.key.toLowerCase();
  if (key === 'c') {
    event.preventDefault();
    return openRange();
  }
  const name = Object.entries(PERIODS).find(([, p]) => p.key === key)?.[0];
  if (!name) return;
  event.preventDefault();
  const { period } = state.view;
  if ('name' in period && period.name === name) return;
  choose(name);
}

/** A day of the main chart (or a month: its days up to the app's today) as the period. */
export function narrowTo(/** @type {string} */ from, /** @type {string} */ to) {
  if (!periodAllowed('custom')) return;
  go({ period: { from, to }, filters: state.view.filters });
}

/** The last day of a month (YYYY-MM), or the app's today when that is sooner. */
export function monthEnd(/** @type {string} */ month) {
  const next = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 1)).toISOString().slice(0, 10);
  const last = addDays(next, -1);
  return state.appToday && state.appToday < last ? state.appToday : last;
}

export function wirePicker() {
  $('#period-form').addEventListener('change', (event) => choose(/** @type {HTMLInputElement} */ (event.target).value));
  // A click on "Custom" when a range is already shown opens its days again (no change event comes then).
  $('#period-custom').addEventListener('click', () => {
    if ('from' in state.view.period) openRange();
  });
  $('#range-form').addEventListener('submit', chooseRange);
  $('#range-cancel').addEventListener('click', closeRange);
  document.addEventListener('keydown', shortcut);
}
