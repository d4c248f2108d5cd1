// @ts-check
// A panel of the grid, as its module makes it: a head with its title and what it shows, and its tabs (the
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
 * @property {() => Node[]} [content] what its body holds before it is drawn
 */

/**
 * A registered panel: its markup, and for a panel of the period how it draws the card in `within` words (the others
 * draw from their own reads).
 * @typedef {object} Panel
 * @property {() => HTMLElement} markup
 * @property {(card: Card | null, problem: string | null, within: string) => void} [show]
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
  const body = el('div', { id: `${tab.id}-body`, hidden: at > 0 }, ...(tab.content?.() ?? []));
  if (tab.wide) {
    body.className = `table-wrap${tab.adminOnly ? ' admin-only' : ''}`;
    body.tabIndex = 0;
  }
  return withAttributes(body, { role: 'tabpanel', 'aria-labelledby': `tab-${tab.id}` });
}

/** A chart's figure, drawn by admin-chart.js into its plot. */
export function chartFigure(/** @type {string} */ name, /** @type {string} */ caption, short = false) {
  const figure = el(
    'figure',
    { className: 'chart' },
    el('figcaption', { textContent: caption }),
    el('div', { className: short ? 'plot short' : 'plot' }),
  );
  return withAttributes(figure, { 'data-chart': name });
}

/**
 * A panel's section; one without tabs has one body, `<id>-body` unless it makes its own. `note` follows the title,
 * muted; an `adminOnly` panel is never on a shared link's page.
 * @param {{ id: string, title: string, note?: string, adminOnly?: boolean, aboutWhat: string, about: string, tabs?: Tab[], body?: () => HTMLElement }} spec
 */
export function panelSection({ id, title, note, adminOnly, aboutWhat, about, tabs, body }) {
  const info = el(
    'details',
    { className: 'info' },
    el('summary', {}, el('span', { className: 'visually-hidden', textContent: aboutWhat })),
    el('p', { textContent: about }),
  );
  const heading = el('h2', { id: `${id}-title` }, title, ...(note ? [' ', el('span', { className: 'muted', textContent: note })] : []));
  const head = el('div', { className: 'panel-head' }, heading, info);
  const section = el('section', { className: adminOnly ? 'admin-only card panel' : 'card panel', id }, head);
  withAttributes(section, { 'aria-labelledby': `${id}-title`, 'aria-busy': 'true' });
  if (!tabs) {
    section.append(body?.() ?? el('div', { id: `${id}-body` }));
    return section;
  }
  const list = withAttributes(el('div', { className: 'tabs' }, ...tabs.map(tabButton)), { role: 'tablist', 'aria-label': title });
  section.append(list, ...tabs.map(tabBody));
  return section;
}
