// @ts-check
// Browsers | Systems | Devices: visits by what they read with, named as their makers write them, with no versions.
import { $ } from './admin-dom.js';
import { panelSection } from './admin-panel.js';
import { showRanked } from './admin-ranked.js';
import { makersName } from './admin-words.js';
import { DIMENSION_ROWS } from './admin-dimensions.js';

/** @typedef {import('./admin-state.js').Card} Card */

/** The dimensions counted by name, one list each: the card's field, the filter, the words and the tab. */
const LISTS = DIMENSION_ROWS.flatMap((row) => (row.card ? [{ ...row, card: row.card }] : []));

export function showDevices(/** @type {Card | null} */ card, /** @type {string | null} */ problem, /** @type {string} */ within) {
  for (const { card: field, filter: dimension, label: title, tab: id } of LISTS) {
    showRanked(
      $(`#${id}-body`),
      {
        id: `${id}-table`,
        caption: `${title}s, most visits first, ${within}`,
        head: [title, 'Visits'],
        rows:
          card?.devices?.[field].map((n) => ({
            label: makersName(n.name),
            values: [n.visitor_days],
            filter: { dimension, value: n.name },
          })) ?? null,
        empty: `No visits with a known ${title.toLowerCase()} ${within}.`,
      },
      problem,
    );
  }
}

/** @type {import('./admin-panel.js').Panel} */
export const devicesPanel = {
  markup: () =>
    panelSection({
      id: 'devices',
      title: 'Devices',
      aboutWhat: 'About the devices',
      about: 'Visits by browser, system and kind of device, with no versions. A visit from two browsers counts under both.',
      tabs: LISTS.map((row) => ({ id: row.tab, label: `${row.label}s` })),
    }),
  show: showDevices,
};
