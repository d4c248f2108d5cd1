// @ts-check
// The read-only API keys: made for a site or all of them, listed, revoked. A key is shown once and kept nowhere after.
import { $, el, emptyNote, failedNote, say } from './admin-dom.js';
import { API, read } from './admin-read.js';

/** @typedef {import('../shared/contract/keys').ApiKeyListAnswer} KeysAnswer */
/** @typedef {import('../shared/contract/keys').ApiKeyMadeAnswer} KeyMadeAnswer */

/** Lists the keys, newest first, each with its revoking. */
export async function loadKeys() {
  const answer = /** @type {import('./admin-state.js').Read<KeysAnswer>} */ (await read(API.keys));
  const body = $('#keys-body');
  if (!answer.ok) return body.replaceChildren(failedNote(answer.why));
  if (answer.body.keys.length === 0) return body.replaceChildren(emptyNote('No API keys yet.'));
  body.replaceChildren(
    el(
      'ul',
      { className: 'links' },
      ...answer.body.keys.map((key) => {
        const words = [key.name, key.site === '*' ? 'all sites' : key.site, `made ${key.created_at.slice(0, 10)}`];
        if (key.revoked_at) words.push('revoked');
        const revoke = el('button', { type: 'button', className: 'quiet', textContent: 'Revoke', disabled: key.revoked_at !== null });
        revoke.addEventListener('click', () => void revokeKey(key.ref));
        const row = el('li', { className: 'link-row' }, el('span', { textContent: words.join(' · ') }), revoke);
        row.dataset.ref = key.ref;
        return row;
      }),
    ),
  );
}

async function revokeKey(/** @type {string} */ ref) {
  await fetch(`${API.keys}/${ref}`, { method: 'DELETE', credentials: 'same-origin' });
  await loadKeys();
}

/** Makes a key from the form, and shows it once. */
async function makeKey() {
  const name = /** @type {HTMLInputElement} */ ($('#key-name')).value.trim();
  const site = /** @type {HTMLSelectElement} */ ($('#key-site')).value;
  const response = await fetch(API.keys, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, ...(site ? { site } : {}) }),
  });
  const answer = await response.json().catch(() => null);
  const message = $('#key-message');
  if (response.status !== 201) return say(message, answer?.error?.message ?? `the app answered ${response.status}`, true);
  /** @type {HTMLInputElement} */ ($('#key-value')).value = /** @type {KeyMadeAnswer} */ (answer).key;
  $('#key-made').hidden = false;
  say(message, 'Made. Copy the key now: it is shown only once.');
  await loadKeys();
}

async function copyKey() {
  const value = /** @type {HTMLInputElement} */ ($('#key-value'));
  try {
    await navigator.clipboard.writeText(value.value);
    say($('#key-message'), 'Copied. The key is shown only once.');
  } catch {
    value.select();
    say($('#key-message'), 'Selected: copy it with the keyboard. The key is shown only once.');
  }
}

export function wireKeys() {
  $('#key-copy').addEventListener('click', () => void copyKey());
  $('#key-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void makeKey();
  });
}
