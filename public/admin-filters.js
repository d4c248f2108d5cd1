// @ts-check
// The filters: a click (or Enter) on a row of a panel adds its filter, which stands as a chip under the picker; a chip's
// words switch it between "is" and "is not", its × removes it. All of it lives in the address (admin-state.js).
import { $, el } from './admin-dom.js';
import { DIMENSIONS, fixedFilters, go, sameFilter, state, withFilter, withoutFilter } from './admin-state.js';

/** @typedef {import('./admin-state.js').Filter} Filter */

/** A filter in words: "Country is Germany", "Page is not /pricing". */
export const filterWords = (/** @type {Filter} */ f) =>
  `${DIMENSIONS[f.dimension].name} ${f.negated ? 'is not' : 'is'} ${DIMENSIONS[f.dimension].words(f.value)}`;

/** A shared link's filter: its words alone, with nothing that switches or removes it. */
function fixedChip(/** @type {Filter} */ filter) {
  const chip = el('li', { className: 'chip fixed', textContent: filterWords(filter) });
  chip.dataset.filter = `${filter.negated ? '!' : ''}${filter.dimension}:${filter.value}`;
  chip.dataset.fixed = 'true';
  return chip;
}

/** The chips of the view's filters, each with its switch and its ×, and "Clear all" when there is more than one. */
export function showChips() {
  const fixed = fixedFilters();
  const filters = state.view.filters.filter((f) => !fixed.some((one) => sameFilter(one, f)));
  const list = $('#filter-list');
  list.replaceChildren(
    ...fixed.map(fixedChip),
    ...filters.map((filter) => {
      const words = filterWords(filter);
      const flip = el(
        'button',
        { type: 'button', className: 'chip-words' },
        `${DIMENSIONS[filter.dimension].name} `,
        el('span', { className: 'chip-sense', textContent: filter.negated ? 'is not' : 'is' }),
        ` ${DIMENSIONS[filter.dimension].words(filter.value)}`,
      );
      flip.setAttribute('aria-label', `${words}: change to ${filter.negated ? 'is' : 'is not'}`);
      flip.addEventListener('click', () => go(withFilter({ ...filter, negated: !filter.negated }, filter)));
      const remove = el('button', { type: 'button', className: 'chip-remove', textContent: '×' });
      remove.setAttribute('aria-label', `Remove the filter ${words}`);
      remove.addEventListener('click', () => go(withoutFilter(filter)));
      const chip = el('li', { className: 'chip' }, flip, remove);
      chip.dataset.filter = `${filter.negated ? '!' : ''}${filter.dimension}:${filter.value}`;
      return chip;
    }),
  );
  $('#filters').hidden = filters.length + fixed.length === 0;
  $('#clear-filters').hidden = filters.length < 2;
}

/** A click on a row's button adds its filter; a click elsewhere on the row does what its button does. */
function rowClicked(/** @type {MouseEvent} */ event) {
  const target = /** @type {HTMLElement} */ (event.target);
  const button = /** @type {HTMLButtonElement | null} */ (target.closest('button.filter'));
  if (button) {
    const { dimension, value } = button.dataset;
    if (dimension === undefined || value === undefined || !Object.hasOwn(DIMENSIONS, dimension)) return;
    go(withFilter({ dimension: /** @type {import('./admin-state.js').Dimension} */ (dimension), value, negated: false }));
    return;
  }
  const row = target.closest('tr.filterable');
  if (row && !target.closest('a, button')) /** @type {HTMLButtonElement | null} */ (row.querySelector('button.filter'))?.click();
}

export function wireFilters() {
  $('#dashboard').addEventListener('click', rowClicked);
  $('#clear-filters').addEventListener('click', () => go({ period: state.view.period, filters: [] }));
}
