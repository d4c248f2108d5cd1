// @ts-check
// The site switcher (one site, or all of them together, kept in the address as `site=`) and the shared links: made for
// a site, listed, revoked. A link's token is shown once, as the address to give, and kept nowhere in the page after.
import { $, el, emptyNote, failedNote, say } from './admin-dom.js';
import { API, read } from './admin-read.js';
import { filterWords } from './admin-filters.js';
import { go, periodOfDays, PERIODS, readFilter, state } from './admin-state.js';

/** @typedef {import('../shared/contract/links').SiteListAnswer} SiteList */
/** @typedef {import('../shared/contract/links').SharedLinksAnswer} LinksAnswer */
/** @typedef {import('../shared/contract/links').SharedLinkMadeAnswer} MadeAnswer */

/** The value the switcher gives all sites together. */
const ALL = '*';

/** Reads the sites and fills the switcher; one site hides it (and the links' and keys' site choices say that one). */
export async function loadSites() {
  const answer = /** @type {import('./admin-state.js').Read<SiteList>} */ (await read(API.sites));
  const picker = /** @type {HTMLSelectElement} */ ($('#site-picker'));
  const choice = /** @type {HTMLSelectElement} */ ($('#link-site'));
  if (!answer.ok) return;
  const { sites, all } = answer.body;
  const options = [...(all ? [{ value: ALL, label: 'All sites' }] : []), ...sites.map((name) => ({ value: name, label: name }))];
  picker.replaceChildren(...options.map((option) => el('option', { value: option.value, textContent: option.label })));
  for (const each of [choice, $('#key-site')])
    each.replaceChildren(...options.map((option) => el('option', { value: option.value, textContent: option.label })));
  picker.value = state.view.site ?? sites[0] ?? '';
  // A link is for the site on screen, or the only one.
  choice.value = picker.value;
  $('#sites').hidden = sites.length < 2;
}

/** Lists the shared links, newest first, each with its revoking. */
export async function loadLinks() {
  const answer = /** @type {import('./admin-state.js').Read<LinksAnswer>} */ (await read(API.links));
  const body = $('#links-body');
  if (!answer.ok) return body.replaceChildren(failedNote(answer.why));
  if (answer.body.links.length === 0) return body.replaceChildren(emptyNote('No shared links yet.'));
  body.replaceChildren(
    el(
      'ul',
      { className: 'links' },
      ...answer.body.links.map((link) => {
        const words = [
          link.site === ALL ? 'all sites' : link.site,
          link.label,
          link.days ? daysWords(link.days) : '',
          link.filters.map(linkFilterWords).join(', '),
          link.password ? 'password' : '',
          link.expires_at ? `until ${link.expires_at.slice(0, 16).replace('T', ' ')} UTC` : '',
          link.revoked_at ? 'revoked' : '',
        ].filter((word) => word !== '');
        const revoke = el('button', { type: 'button', className: 'quiet', textContent: 'Revoke', disabled: link.revoked_at !== null });
        revoke.addEventListener('click', () => void revokeLink(link.ref));
        const row = el('li', { className: 'link-row' }, el('span', { textContent: words.join(' · ') }), revoke);
        row.dataset.ref = link.ref;
        return row;
      }),
    ),
  );
}

/** A link's fixed filter as a chip says it: "Country is France". */
function linkFilterWords(/** @type {string} */ text) {
  const filter = readFilter(text);
  return filter ? filterWords(filter) : text;
}

/** A link's fixed period as the picker names it: "7 days", "All time". */
function daysWords(/** @type {string} */ days) {
  const name = periodOfDays(days);
  return name === null ? `${days} days` : PERIODS[name].label;
}

async function revokeLink(/** @type {string} */ ref) {
  await fetch(`${API.links}/${ref}`, { method: 'DELETE', credentials: 'same-origin' });
  await loadLinks();
}

/** Makes a link from the form, and shows its address once. */
async function makeLink() {
  const value = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ ($(id)).value.trim();
  const expires = value('#link-expires');
  const body = {
    site: value('#link-site'),
    label: value('#link-label'),
    days: value('#link-days') || null,
    filters: state.view.filters.map((f) => `${f.negated ? '!' : ''}${f.dimension}:${f.value}`),
    expires_at: expires ? new Date(`${expires}T23:59:59Z`).toISOString() : null,
    password: value('#link-password') || null,
  };
  const response = await fetch(API.links, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = await response.json().catch(() => null);
  const message = $('#link-message');
  if (response.status !== 201) return say(message, answer?.error?.message ?? `the app answered ${response.status}`, true);
  const made = /** @type {MadeAnswer} */ (answer);
  /** @type {HTMLInputElement} */ ($('#link-address')).value = `${location.origin}${location.pathname}#share=${made.token}`;
  $('#link-made').hidden = false;
  say(message, 'Made. Copy the address now: it is shown only once.');
  /** @type {HTMLInputElement} */ ($('#link-password')).value = '';
  await loadLinks();
}

/** Copies the address just made; where the clipboard is refused, it is selected for the keyboard's copy. */
async function copyAddress() {
  const address = /** @type {HTMLInputElement} */ ($('#link-address'));
  try {
    await navigator.clipboard.writeText(address.value);
    say($('#link-message'), 'Copied. The address is shown only once.');
  } catch {
    address.select();
    say($('#link-message'), 'Selected: copy it with the keyboard. The address is shown only once.');
  }
}

/** The switcher moves the view to a site, and the links' form makes a link. */
export function wireSites() {
  $('#site-picker').addEventListener('change', (event) => {
    const site = /** @type {HTMLSelectElement} */ (event.target).value;
    go({ period: state.view.period, filters: state.view.filters, site });
  });
  $('#link-copy').addEventListener('click', () => void copyAddress());
  $('#link-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void makeLink();
  });
}
