// @ts-check
// The read-only view a shared link opens: the address's fragment carries the token (`#share=…`, which no request
// carries to the app or its logs), and the page reads the link's card with it in a header: its site, period and filters,
// and nothing else. No admin action, visitor-day, export or all-time figure is shown.
import { $, say } from './admin-dom.js';

/** The token the address's fragment carries, or null outside a shared link. */
export const sharedToken = () => new URLSearchParams(location.hash.slice(1)).get('share');

/** The link's password, once the viewer typed it; kept only in this page's memory, until the app answers a pass. */
let password = '';

/** What the app answers a right password with, sent in its place so the password is not checked (nor kept) again. */
let pass = '';

/**
 * A read of a shared route: its answer, or why not, the error's code (`password_required`, `revoked`, …) and whether
 * the link itself was refused (401, 429) rather than the read failing.
 * @template T
 * @param {string} path
 * @returns {Promise<{ ok: true, body: T } | { ok: false, why: string, code: string, refused: boolean }>}
 */
export async function readShared(path) {
  /** @type {Record<string, string>} */
  const headers = { 'x-share-token': sharedToken() ?? '' };
  if (pass) headers['x-share-pass'] = pass;
  else if (password) headers['x-share-password'] = password;
  try {
    const response = await fetch(path, { cache: 'no-store', credentials: 'omit', headers });
    const answered = response.headers.get('x-share-pass');
    if (answered) [pass, password] = [answered, ''];
    else if (response.status === 401) pass = '';
    const body = await response.json().catch(() => null);
    if (!response.ok)
      return {
        ok: false,
        why: body?.error?.message ?? `the app answered ${response.status}`,
        code: body?.error?.code ?? '',
        refused: response.status === 401 || response.status === 429,
      };
    return { ok: true, body: /** @type {T} */ (body) };
  } catch {
    return { ok: false, why: 'the app could not be reached', code: '', refused: false };
  }
}

/** Enters the shared view: the page marked read-only, no sign-in; the password form reads again with what is typed. */
export function enterShared(/** @type {() => Promise<void>} */ load) {
  document.body.dataset.shared = 'true';
  $('#sign-in').hidden = true;
  $('#top').hidden = false;
  $('#actions').hidden = false;
  $('#share-form').addEventListener('submit', (event) => {
    event.preventDefault();
    password = /** @type {HTMLInputElement} */ ($('#share-password')).value;
    pass = '';
    void load();
  });
}

/** Shows the link's dashboard, and what it is of. */
export function openedShared(/** @type {{ site: string, label: string }} */ link) {
  $('#share').hidden = true;
  $('#dashboard').hidden = false;
  $('#share-words').textContent = `Read-only: ${link.site === '*' ? 'all sites' : link.site}${link.label ? `, ${link.label}` : ''}.`;
}

/** Why a link opens nothing, by the refusal's code (its message is the app's, worded for a program's log). */
function refusalWords(/** @type {string} */ code) {
  if (code === 'revoked') return 'Its owner has closed this link. Ask them for a new one.';
  if (code === 'expired') return 'This link has expired. Ask its owner for a new one.';
  if (code === 'password_required') return 'This link asks for its password.';
  if (code === 'too_many_attempts') return 'Too many tries from here. Wait a minute, then try again.';
  if (password) return 'That password is not the one this link was given. Check it and try again.';
  return 'This link opens nothing. Check that the whole address was copied, or ask its owner for it again.';
}

/** Shows why the link opens nothing; the password field only for a link that has one. */
export function refusedShared(/** @type {{ why: string, code: string }} */ refused) {
  // A wrong password and a wrong token are refused alike, so a typed password that was refused asks again.
  const asking = refused.code === 'password_required' || (password !== '' && refused.code === 'unauthorized');
  $('#dashboard').hidden = true;
  $('#share').hidden = false;
  $('#share-form').hidden = !asking;
  say($('#share-message'), refusalWords(refused.code), refused.code !== 'password_required');
}
