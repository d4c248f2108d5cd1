// @ts-check
// A panel of the period's grid, as its module makes it: a head with its title and what it shows, and its tabs (the
// WAI-ARIA pattern wireTabs() runs, the first one chosen), each with the body the module draws into.
import { el } from './admin-dom.js';

/** @typedef {import('./admin-state.js').Card} Card */

/**
 * One tab: the button `tab-<id>` and the body `<id>-body`.
 * @typedef {object} Tab
 * @property {string} id
 * @property {string} label
 * @property {boolean} [adminOnly] only the operator sees it, never a shared link
 * @property {boolean} [wide] its body is a table that scrolls sideways
 */

/**
 * A registered panel: its markup, and how it draws the card of the period in `within` words.
 * @typedef {object} Panel
 * @property {() => HTMLElement} markup
 * @property {(card: Card | null, problem: string | null, within: string) => void} show
 */

/** Sets attributes el() cannot set as properties. */
function withAttributes(/** @type {HTMLElement} */ node, /** @type {Record<string, string>} */ attributes) {
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return node;
}

function tabButton(/** @type {Tab} */ tab, /** @type {number} */ at) {
  const button = el('button', { type: 'button', id: `tab-${tab.id}`, textContent: tab.label });
  if (tab.adminOnly) button.className = 'admin-only';
  if (at > 0) button.tabIndex = -1;
  return withAttributes(button, { role: 'tab', 'aria-selected': String(at === 0), 'aria-controls': `${tab.id}-body` });
}

function tabBody(/** @type {Tab} */ tab, /** @type {number} */ at) {
  const body = el('div', { id: `${tab.id}-body`, hidden: at > 0 });
  if (tab.wide) {
    body.className = `table-wrap${tab.adminOnly ? ' admin-only' : ''}`;
    body.tabIndex = 0;
  }
  return withAttributes(body, { role: 'tabpanel', 'aria-labelledby': `tab-${tab.id}` });
}

/**
 * A panel's section; one without tabs has the one body `<id>-body`.
 * @param {{ id: string, title: string, aboutWhat: string, about: string, tabs?: Tab[] }} spec
 */
export function panelSection({ id, title, aboutWhat, about, tabs }) {
  const info = el(
    'details',
    { className: 'info' },
    el('summary', {}, el('span', { className: 'visually-hidden', textContent: aboutWhat })),
    el('p', { textContent: about }),
  );
  const head = el('div', { className: 'panel-head' }, el('h2', { id: `${id}-title`, textContent: title }), info);
  const section = withAttributes(el('section', { className: 'card panel', id }, head), {
    'aria-labelledby': `${id}-title`,
    'aria-busy': 'true',
  });
  if (!tabs) {
    section.append(el('div', { id: `${id}-body` }));
    return section;
  }
  const list = withAttributes(el('div', { className: 'tabs' }, ...tabs.map(tabButton)), { role: 'tablist', 'aria-label': title });
  section.append(list, ...tabs.map(tabBody));
  return section;
}
