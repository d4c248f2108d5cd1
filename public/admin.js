// @ts-check
// headcount Admin: the period picker and the filters at the top, the period's tiles and main chart, then its panels in a
// grid, each drawn by its own module from the one state (admin-state.js). A change of period or filter reads the card
// alone and redraws every panel of the period; "now" reads itself again every 30 seconds while the page is in view.
import { $, say, wireTabs } from './admin-dom.js';
import { resized } from './admin-chart.js';
import { showAllTime } from './admin-all-time.js';
import { loadDay, wireDay } from './admin-day.js';
import { showExport, wireExport } from './admin-export.js';
import { showChips, wireFilters } from './admin-filters.js';
import { showFirstTouch } from './admin-first-touch.js';
import { showRetention } from './admin-retention.js';
import { showAllTimePeople, showFigureChoice, showHeadline, showNowTile } from './admin-headline.js';
import { showImported } from './admin-imported.js';
import { showMainChart } from './admin-main-chart.js';
import { showMark } from './admin-mark.js';
import { mountPanels, PANELS } from './admin-panels.js';
import { showHours, showNow } from './admin-now.js';
import { periodWords, showPicker, wirePicker } from './admin-picker.js';
import { API, read, SignedOut } from './admin-read.js';
import { resume, SESSION_ENDED, signOut, wireSession } from './admin-session.js';
import { showSubjects } from './admin-subjects.js';
import { enterShared, openedShared, readShared, refusedShared, sharedToken } from './admin-shared.js';
import { loadLinks, loadSites, wireSites } from './admin-sites.js';
import { loadKeys, wireKeys } from './admin-keys.js';
import { loadSettings, showSegmentSave, wireSettings } from './admin-settings.js';
import { cardQuery, followAddress, periodOfDays, retentionQuery, state, whenViewChanges } from './admin-state.js';
import { isDay, shortDay } from './admin-words.js';

/** @typedef {import('./admin-state.js').Card} Card */

/** How often "now" reads itself again while the page is in view. */
const NOW_EVERY_MS = 30_000;

/** Runs a read; a session found gone signs out, anything else is the browser's to report. */
function guarded(/** @type {Promise<void>} */ work) {
  work.catch((error) => {
    if (error instanceof SignedOut) signOut(SESSION_ENDED, true);
    else throw error;
  });
}

/** Why the card cannot be drawn: its read failed, the store could not answer, or it has no days. */
function problemOf(/** @type {import('./admin-state.js').Read<Card> | null} */ result) {
  if (!result) return 'not read yet';
  if (!result.ok) return result.why;
  if (result.body.availability.available === false) return result.body.availability.reason.replace(/\.$/, '');
  return !result.body.by_day && !result.body.by_month ? 'the store did not answer' : null;
}

/** Every panel of the period, from the card. */
function drawPeriod() {
  const result = state.answers.card;
  const card = result?.ok ? result.body : null;
  const problem = problemOf(result);
  const said = periodWords(state.view.period, card);
  for (const node of document.querySelectorAll('.period-words')) node.textContent = said.words;
  showPicker(card);
  showChips();
  showPeriodDays(card);
  showRollups(card);
  $('#availability').textContent = card?.availability.reason ?? '';
  showHeadline(card, problem);
  showMainChart(card, problem);
  for (const panel of PANELS) panel.show?.(card, problem, said.within);
  // A shared link's card has no first touches (all time) and no last hours (every path).
  if (!state.shared) {
    showFirstTouch(card, problem);
    showHours(card, problem);
  }
  showImported(problem ? null : card, said.words);
  showExport(
    card && isDay(card.from) && isDay(card.to)
      ? `${shortDay(card.from ?? '', state.appToday)} to ${shortDay(card.to ?? '', state.appToday)}`
      : said.words,
  );
}

/** The days the figures are of, beside the picker; an address that could not be read says so instead. */
function showPeriodDays(/** @type {Card | null} */ card) {
  const message = $('#period-message');
  if (state.view.refused) return say(message, state.view.refused, true);
  if (!card || !isDay(card.from) || !isDay(card.to)) return say(message, '');
  const first = shortDay(card.from ?? '', state.appToday);
  const last = shortDay(card.to ?? '', state.appToday);
  const zone = card.time_zone;
  // Days kept before the zone was set stay in the zone they were kept in.
  const since = card.time_zone_from;
  const change =
    since && since > (card.from ?? '') && since <= (card.to ?? '')
      ? `; ${zone} from ${shortDay(since, state.appToday)}, kept before in UTC`
      : '';
  say(message, card.from === card.to ? `${first}, a ${zone} day` : `${first} to ${last}, ${zone} days${change}`);
}

/** The note that the figures miss days the timer is still adding up (days kept before the day rollups were). */
function showRollups(/** @type {Card | null} */ card) {
  const note = $('#rollups-note');
  const rollups = card?.rollups;
  note.hidden = rollups?.complete !== false;
  if (!card || !rollups || rollups.complete !== false) return (note.textContent = '');
  // A filtered read counts only the days the fold has kept filters for.
  const from = rollups.filters_from;
  if (from !== undefined && card.from && card.from < from)
    return (note.textContent =
      isDay(from) && card.to && from <= card.to
        ? `With filters, only the days from ${shortDay(from, state.appToday)} are counted: the filters' figures are kept from then.`
        : "With filters, no day of this period is counted yet: the filters' figures are kept from the timer's next runs.");
  note.textContent = isDay(rollups.built_back_to)
    ? `Days before ${shortDay(rollups.built_back_to ?? '', state.appToday)} are still being added up, so these figures do not hold them yet.`
    : 'The days kept before the daily summaries began are still being added up, so these figures do not hold them yet.';
}

/** Marks the dashboard as reading, then as drawn: `data-period` names the card's query its figures are of. */
function reading(/** @type {string} */ query) {
  $('#dashboard').dataset.state = 'loading';
  $('#dashboard').dataset.reading = query;
  for (const section of document.querySelectorAll('#dashboard [aria-busy]')) section.setAttribute('aria-busy', 'true');
}

function drawn(/** @type {string} */ query, /** @type {number} */ failures, /** @type {number} */ reads) {
  for (const section of document.querySelectorAll('#dashboard [aria-busy]')) section.setAttribute('aria-busy', 'false');
  const at = new Date().toISOString().slice(11, 19);
  say(
    $('#status'),
    failures === 0 ? `Read at ${at} UTC.` : `Read at ${at} UTC; ${failures} of ${reads} reads failed, and their panels say why.`,
    failures > 0,
  );
  $('#dashboard').dataset.period = query;
  $('#dashboard').dataset.state = failures === 0 ? 'ready' : 'partial';
}

/** The app's today: the last day of the count, else of the card (a named period ends today). */
function learnToday() {
  const people = state.answers.people;
  const card = state.answers.card;
  const counted = people?.ok ? (people.body.people_new_by_day?.at(-1)?.day ?? null) : null;
  const answered = card?.ok && !('from' in state.view.period) && isDay(card.body.to) ? card.body.to : null;
  state.appToday = counted ?? answered ?? state.appToday;
}

/**
 * The view's retention, or null when it has filters retention does not take (the panel says so, and nothing is asked).
 * @returns {Promise<import('./admin-state.js').Read<import('./admin-state.js').RetentionAnswer> | null>}
 */
const readRetention = () => read(`${API.retention}?${retentionQuery(state.view)}`);

/** The reads that were made, and how many of them failed. */
const failedOf = (/** @type {Array<{ ok: boolean } | null>} */ reads) => {
  const made = reads.filter((r) => r !== null);
  return { failed: made.filter((r) => !r.ok).length, made: made.length };
};

/** Reads the card of the view and its retention (a period or filter changed) and redraws every panel of the period. */
async function loadCard() {
  const mine = ++state.generation;
  const query = cardQuery(state.view);
  reading(query);
  const [card, retention] = await Promise.all([read(`${API.activity}?${query}`), readRetention()]);
  if (mine !== state.generation) return;
  state.answers.card = /** @type {import('./admin-state.js').Read<Card>} */ (card);
  state.answers.retention = retention;
  learnToday();
  drawPeriod();
  showRetention();
  const { failed, made } = failedOf([card, retention]);
  drawn(query, failed, made);
  await loadDay();
}

/** The site every panel was last read for (the address's `site=`, null for the default). */
let loadedSite = state.view.site;

/** Drops the last site's answers and draws their panels empty, so no figure of it stands while the new site is read. */
function forgetSite() {
  for (const name of /** @type {Array<keyof typeof state.answers>} */ (Object.keys(state.answers))) state.answers[name] = null;
  drawPeriod();
  showAllTimePeople();
  showAllTime();
  showNow();
  showNowTile();
  showSubjects();
  showRetention();
}

/** Reads everything: the count, the card, the subjects, the mark and now at once, then draws every panel. */
async function loadAll() {
  const mine = ++state.generation;
  if (state.view.site !== loadedSite) forgetSite();
  loadedSite = state.view.site;
  const query = cardQuery(state.view);
  const refresh = /** @type {HTMLButtonElement} */ ($('#refresh'));
  refresh.disabled = true;
  reading(query);
  try {
    const [people, card, subjects, mark, now, retention] = await Promise.all([
      read(API.people),
      read(`${API.activity}?${query}`),
      read(API.subjects),
      read(API.mark),
      read(API.now),
      readRetention(),
    ]);
    if (mine !== state.generation) return;
    Object.assign(state.answers, { people, card, subjects, mark, now, retention });
    learnToday();
    drawPeriod();
    showAllTimePeople();
    showAllTime();
    drawNow();
    showSubjects();
    showMark();
    showRetention();
    await Promise.all([loadSites(), loadLinks(), loadKeys(), loadSettings()]);
    const { failed, made } = failedOf([people, card, subjects, mark, now, retention]);
    drawn(query, failed, made);
    await loadDay();
  } catch (error) {
    if (error instanceof SignedOut) signOut(SESSION_ENDED, true);
    else throw error;
  } finally {
    if (mine === state.generation) refresh.disabled = false;
  }
}

/** Reads what a shared link opens (its card, under its view) and draws the period's panels; nothing else is read. */
async function loadShared() {
  const mine = ++state.generation;
  const query = cardQuery(state.view);
  reading(query);
  const card = await readShared(`/api/shared/activity?${query}`);
  if (mine !== state.generation) return;
  if (!card.ok && card.refused) return refusedShared(card);
  const shared = card.ok ? /** @type {import('../shared/contract/links').SharedCardAnswer} */ (card.body) : null;
  if (shared) {
    state.shared = shared.view;
    openedShared(shared.view);
    followFixedPeriod(shared);
  }
  state.answers.card = /** @type {import('./admin-state.js').Read<Card>} */ (card);
  learnToday();
  drawPeriod();
  drawn(query, card.ok ? 0 : 1, 1);
}

/** A link's fixed period is the one the page names, whatever the address asked. */
function followFixedPeriod(/** @type {import('../shared/contract/links').SharedCardAnswer} */ card) {
  if (card.view.days === null) return;
  const name = periodOfDays(card.view.days);
  if (name !== null) state.view.period = { name };
  else if (isDay(card.from) && isDay(card.to)) state.view.period = { from: card.from ?? '', to: card.to ?? '' };
}

/** The next read of "now", 30 seconds after the last one was drawn. */
let nowTimer = 0;

/** Draws "now" and sets its next read; a hidden page sets none, and reads at once when it is seen again. */
function drawNow() {
  showNow();
  showNowTile();
  clearTimeout(nowTimer);
  nowTimer = window.setTimeout(() => guarded(refreshNow()), NOW_EVERY_MS);
}

/** Reads "now" again, while the page is in view. */
async function refreshNow() {
  if (!state.signedIn || document.visibilityState !== 'visible') return;
  state.answers.now = await read(API.now);
  drawNow();
}

mountPanels();
wireSession(loadAll);
wireSites();
wireKeys();
wireSettings(() => guarded(loadCard()));
wirePicker();
wireFilters();
wireExport(() => signOut(SESSION_ENDED, true));
wireDay(guarded);
wireTabs((panel) => {
  if (panel === 'now') for (const chart of ['now-minutes', 'hours']) resized(chart);
});
for (const button of document.querySelectorAll('[data-pick-figure]')) {
  button.addEventListener('click', () => {
    const figure = /** @type {import('./admin-state.js').Figure} */ (button.getAttribute('data-pick-figure'));
    state.figure = state.figure === figure && figure === 'kinds' ? 'visits' : figure;
    showFigureChoice();
    showMainChart(state.answers.card?.ok ? state.answers.card.body : null, problemOf(state.answers.card));
  });
}
$('#refresh').addEventListener('click', () => guarded(sharedToken() ? loadShared() : loadAll()));
window.addEventListener('popstate', followAddress);
whenViewChanges(() => {
  showPicker();
  showChips();
  showSegmentSave();
  if (sharedToken()) guarded(loadShared());
  // Another site reads every panel again, so no figure of the last site stays beside the new one's.
  else if (state.signedIn && state.view.site !== loadedSite) guarded(loadAll());
  else if (state.signedIn) guarded(loadCard());
});
document.addEventListener('visibilitychange', () => guarded(refreshNow()));

showPicker();
showChips();
showFigureChoice();
if (sharedToken()) {
  enterShared(loadShared);
  void loadShared().finally(() => document.body.setAttribute('data-ready', 'true'));
} else void resume(loadAll).finally(() => document.body.setAttribute('data-ready', 'true'));
