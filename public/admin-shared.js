// @ts-check
// The read-only view a shared link opens: the address's fragment carries the token (`#share=…`, which no request
// carries to the app or its logs), and the page reads the link's site's count and card with it in a header. Nothing
// else is read, and no admin action, visitor-day or export is shown.
import { $, say } from './admin-dom.js';

/** The token the address's fragment carries, or null outside a shared link. */
export const sharedToken = () => new URLSearchParams(location.hash.slice(1)).get('share');

/** The link's password, once the viewer typed it; kept only in this page's memory. */
let password = '';

/**
 * A read of a shared route: its answer, or why not and the error's code (`password_required`, `revoked`, …).
 * @template T
 * @param {string} path
 * @returns {Promise<{ ok: true, body: T } | { ok: false, why: string, code: string }>}
 */
export async function readShared(path) {
  /** @type {Record<string, string>} */
  const headers = { 'x-share-token': sharedToken() ?? '' };
  if (password) headers['x-share-password'] = password;
  try {
    const response = await fetch(path, { cache: 'no-store', credentials: 'omit', headers });
    const body = await response.json().catch(() => null);
    if (!response.ok)
      return { ok: false, why: body?.error?.message ?? `the app answered ${response.status}`, code: body?.error?.code ?? '' };
    return { ok: true, body: /** @type {T} */ (body) };
  } catch {
    return { ok: false, why: 'the app could not be reached', code: '' };
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
    void load();
  });
}

/** Shows the link's dashboard, and what it is of. */
export function openedShared(/** @type {{ site: string, label: string }} */ link) {
  $('#share').hidden = true;
  $('#dashboard').hidden = false;
  $('#share-words').textContent = `Read-only: ${link.site === '*' ? 'all sites' : link.site}${link.label ? `, ${link.label}` : ''}.`;
}

/** Shows why the link opens nothing, or asks for its password. */
export function refusedShared(/** @type {{ why: string, code: string }} */ refused) {
  // A wrong password and a wrong token are refused alike, so a typed password that was refused asks again.
  const asking = refused.code === 'password_required' || (password !== '' && refused.code === 'unauthorized');
  $('#dashboard').hidden = true;
  $('#share').hidden = false;
  $('#share-form').hidden = !asking;
  say(
    $('#share-message'),
    refused.code === 'password_required'
      ? 'This link asks for its password.'
      : `This link opens nothing: ${refused.why.replace(/\.$/, '')}.`,
    refused.code !== 'password_required',
  );
}
