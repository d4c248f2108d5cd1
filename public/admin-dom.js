// @ts-check
// Building the page from text. Everything a visitor controls (paths, hosts, campaign tags) reaches the page through el()
// and textContent, never innerHTML, so it is always shown as text.

/**
 * The element a selector names; the page always has it.
 * @template {Element} [T=HTMLElement]
 * @param {string} selector
 * @param {ParentNode} [within]
 * @returns {T}
 */
export function $(selector, within = document) {
  const node = within.querySelector(selector);
  if (!node) throw new Error(`${selector} is not on the page`);
  return /** @type {T} */ (node);
}

/**
 * A new element with these properties and children (text or nodes).
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Partial<Omit<HTMLElementTagNameMap[K], 'style' | 'dataset'>>} [props]
 * @param {...(Node | string | null | undefined)} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, props = {}, ...children) {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children.filter((child) => child !== null && child !== undefined));
  return node;
}

/** Sets a message, marked bad or not. */
export function say(/** @type {HTMLElement} */ node, /** @type {string} */ text, bad = false) {
  node.textContent = text;
  node.classList.toggle('bad', bad);
}

/** A panel's words when it could not be read, or has nothing to show. */
export const failedNote = (/** @type {string} */ why) => el('p', { className: 'failed', textContent: `Could not be read: ${why}.` });
export const emptyNote = (/** @type {string} */ text) => el('p', { className: 'empty', textContent: text });

/** @typedef {string | number | Node} Cell */

/**
 * A table with a caption: the first column heads each row, and the columns `numeric` says are figures (all but the
 * first unless told) are set right. A cell is text, a number, or a node built with el(), never markup.
 * @param {string} caption
 * @param {string[]} head
 * @param {Cell[][]} rows
 * @param {(i: number) => boolean} [numeric]
 */
export function dataTable(caption, head, rows, numeric = (i) => i > 0) {
  const headRow = el('tr', {}, ...head.map((text, i) => el('th', { scope: 'col', className: numeric(i) ? 'n' : '', textContent: text })));
  return el(
    'table',
    { className: 'data' },
    el('caption', { textContent: caption }),
    el('thead', {}, headRow),
    el('tbody', {}, ...rows.map((row) => tableRow(row, numeric))),
  );
}

/** One row of a data table; append() makes a text node of a string, so a visitor's text can never become markup. */
export function tableRow(/** @type {Cell[]} */ row, numeric = (/** @type {number} */ i) => i > 0) {
  const cellOf = (/** @type {Cell} */ cell, /** @type {number} */ i) => {
    const node = i === 0 ? el('th', { scope: 'row' }) : el('td', { className: numeric(i) ? 'n' : '' });
    node.append(cell instanceof Node ? cell : typeof cell === 'number' ? cell.toLocaleString('en-GB') : cell);
    return node;
  };
  return el('tr', {}, ...row.map(cellOf));
}

/**
 * The tabs of every panel: a click or the arrow keys pick one, its panel shows and the others hide (the WAI-ARIA tabs
 * pattern, the selected tab the one in the Tab order). `chosen` is told of each pick (a chart shown again is sized).
 * @param {(panel: string, tab: string) => void} chosen
 */
export function wireTabs(chosen) {
  for (const list of document.querySelectorAll('[role="tablist"]')) {
    const tabs = /** @type {HTMLButtonElement[]} */ ([...list.querySelectorAll('[role="tab"]')]);
    const panel = /** @type {HTMLElement} */ (list.closest('section')).id;
    const pick = (/** @type {HTMLButtonElement} */ tab, focus = false) => {
      for (const other of tabs) {
        const on = other === tab;
        other.setAttribute('aria-selected', String(on));
        other.tabIndex = on ? 0 : -1;
        $(`#${other.getAttribute('aria-controls')}`).hidden = !on;
      }
      if (focus) tab.focus();
      chosen(panel, tab.id);
    };
    for (const tab of tabs) tab.addEventListener('click', () => pick(tab));
    list.addEventListener('keydown', (event) => {
      const at = tabs.indexOf(/** @type {HTMLButtonElement} */ (document.activeElement));
      const key = /** @type {KeyboardEvent} */ (event).key;
      const next = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: tabs.length - 1 }[key];
      if (next === undefined || at < 0) return;
      event.preventDefault();
      pick(tabs[(next + tabs.length) % tabs.length], true);
    });
  }
}
