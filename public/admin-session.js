// @ts-check
// Signing in with the operator key, which the app exchanges for a session (an HttpOnly cookie no script can read; the
// key is never kept in the browser), and signing out.
import { $, say } from './admin-dom.js';
import { forgetCharts } from './admin-chart.js';
import { API } from './admin-read.js';
import { state } from './admin-state.js';
import { unitOf } from './admin-words.js';

/** What the dashboard says when a read finds the session gone (it ran out, or the key was rotated). */
export const SESSION_ENDED = 'The session has ended. Sign in again.';

export function showSignedIn(/** @type {boolean} */ now) {
  state.signedIn = now;
  $('#sign-in').hidden = now;
  $('#dashboard').hidden = !now;
  $('#actions').hidden = !now;
  $('#top').hidden = !now;
}

/** Shows the sign-in form again (the session is already ended, or was never there), with why. */
export function signOut(message = '', bad = false) {
  forgetCharts();
  showSignedIn(false);
  say($('#sign-in-message'), message, bad);
  /** @type {HTMLInputElement} */ ($('#key')).value = '';
  $('#key').focus();
}

const secondsWords = (/** @type {number} */ n) => `${n} ${unitOf(n, 'second', 'seconds')}`;

/**
 * Why the app refused a key, in words: a wrong key (and, once its free tries are spent, how long this address now
 * waits), or the wait itself (429), both read from Retry-After, as the app states its slowdown.
 */
function refusedWords(/** @type {Response} */ response) {
  const wait = Number(response.headers.get('retry-after'));
  const waits = Number.isInteger(wait) && wait > 0;
  if (response.status === 429)
    return `Too many wrong keys from this address: the next try is checked in ${secondsWords(waits ? wait : 1)}.`;
  if (response.status === 401) {
    const base = 'That key was not accepted. Check the operator key and try again.';
    return waits ? `${base} This address now waits ${secondsWords(wait)} before its next try.` : base;
  }
  return `The app answered ${response.status}; try again in a moment.`;
}

/**
 * Signs in: the key goes to the app once, which answers with a session, and the page forgets it. Nothing of the key is
 * kept in sessionStorage, localStorage or a readable cookie.
 * @param {SubmitEvent} event
 * @param {() => Promise<void>} loadAll
 */
async function signIn(event, loadAll) {
  event.preventDefault();
  const input = /** @type {HTMLInputElement} */ ($('#key'));
  const key = input.value.trim();
  const message = $('#sign-in-message');
  if (!key) return say(message, 'Type the operator key first.', true);
  const button = /** @type {HTMLButtonElement} */ ($('#sign-in-button'));
  button.disabled = true;
  say(message, 'Checking the key…');
  try {
    const response = await fetch(API.session, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      cache: 'no-store',
      credentials: 'same-origin',
    });
    if (!response.ok) return say(message, refusedWords(response), true);
    input.value = '';
    say(message, '');
    showSignedIn(true);
    // Focus moves to the figures without scrolling: main begins under the sticky bar, which would cover its top.
    $('#main').focus({ preventScroll: true });
    window.scrollTo(0, 0);
    await loadAll();
  } catch {
    say(message, 'The app could not be reached. Check the connection and try again.', true);
  } finally {
    button.disabled = false;
  }
}

/** Signs out: the app removes the session's cookie; the sign-in form comes back whether or not the app could be reached. */
async function signOutNow() {
  try {
    await fetch(API.session, { method: 'DELETE', cache: 'no-store', credentials: 'same-origin' });
  } catch {
    // Unreachable: the session still ends on its own after its hours unused.
  }
  signOut('Signed out.');
}

/** On load: a session this browser already holds (a reload, a bookmark) reads at once; otherwise the form waits for the key. */
export async function resume(/** @type {() => Promise<void>} */ loadAll) {
  try {
    const response = await fetch(API.session, { cache: 'no-store', credentials: 'same-origin' });
    const body = /** @type {import('../shared/contract/admin').SessionAnswer | null} */ (await response.json().catch(() => null));
    if (response.ok && body?.signed_in === true) {
      showSignedIn(true);
      void loadAll();
    } else if (body?.ended === true) say($('#sign-in-message'), SESSION_ENDED);
  } catch {
    // The app unreachable: signing in says so.
  }
}

export function wireSession(/** @type {() => Promise<void>} */ loadAll) {
  $('#sign-in-form').addEventListener('submit', (event) => void signIn(/** @type {SubmitEvent} */ (event), loadAll));
  $('#sign-out').addEventListener('click', () => void signOutNow());
}
