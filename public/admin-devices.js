// @ts-check
// Browsers | Systems | Devices: visits by what they read with, named as their makers write them, with no versions.
import { $ } from './admin-dom.js';
import { showRanked } from './admin-ranked.js';
import { makersName } from './admin-words.js';

/** @typedef {import('./admin-state.js').Card} Card */

/** The three lists: the card's field, the filter's dimension, and the words. */
const LISTS = /** @type {const} */ ([
  ['browsers', 'browser', 'Browser', 'browsers'],
  ['systems', 'system', 'System', 'systems'],
  ['types', 'device', 'Device', 'devices'],
]);

export function showDevices(/** @type {Card | null} */ card, /** @type {string | null} */ problem, /** @type {string} */ within) {
  for (const [field, dimension, title, id] of LISTS) {
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
