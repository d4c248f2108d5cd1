// @ts-check
// The export follows the view: the days the card answered and its filters, a row a day, as CSV or JSON.
import { $, el, say } from './admin-dom.js';
import { filterWords } from './admin-filters.js';
import { API } from './admin-read.js';
import { exportQuery, state } from './admin-state.js';
import { daysFrom, isDay } from './admin-words.js';
import { EXPORT_LISTS } from './admin-dimensions.js';

/** The export takes at most this many days (GET /api/admin/export). */
const MOST_DAYS = 400;

/** Says what the export will hold: the period's days and its filters. */
export function showExport(/** @type {string} */ words) {
  const filters = state.view.filters.map(filterWords);
  $('#export-words').textContent = `${words}${filters.length ? `, ${filters.join(', ')}` : ''}`;
}

/** @param {() => void} signedOut what to do when the session has gone */
async function exportFigures(/** @type {SubmitEvent} */ event, signedOut) {
  event.preventDefault();
  const message = $('#export-message');
  const card = state.answers.card?.ok ? state.answers.card.body : null;
  const from = card?.from;
  const to = card?.to;
  if (!card || !from || !to || !isDay(from) || !isDay(to)) return say(message, 'Not exported: the period has not been read yet.', true);
  if (daysFrom(from, to) > MOST_DAYS)
    return say(message, `Not exported: the export takes at most ${MOST_DAYS} days; pick a shorter period.`, true);
  const format = /** @type {HTMLSelectElement} */ ($('#export-format')).value;
  const button = /** @type {HTMLButtonElement} */ ($('#export-button'));
  button.disabled = true;
  say(message, 'Preparing the export…');
  try {
    const response = await fetch(`${API.export}?${exportQuery(state.view, from, to, format)}`, {
      cache: 'no-store',
      credentials: 'same-origin',
    });
    if (response.status === 401) return signedOut();
    if (!response.ok) {
      const body = await response.json().catch(() => null);
      return say(message, `Not exported: ${body?.error?.message ?? `the app answered ${response.status}`}.`, true);
    }
    const name = `headcount-${from}-${to}.${format}`;
    const link = el('a', { href: URL.createObjectURL(await response.blob()), download: name });
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

export function wireExport(/** @type {() => void} */ signedOut) {
  $('#export-lists').textContent = `${EXPORT_LISTS.slice(0, -1).join(', ')} and ${EXPORT_LISTS.at(-1)}`;
  $('#export-form').addEventListener('submit', (event) => void exportFigures(/** @type {SubmitEvent} */ (event), signedOut));
}
