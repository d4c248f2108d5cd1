// @ts-check
// Countries: visits by the country of the address they came from (kept as its two-letter code only).
import { $ } from './admin-dom.js';
import { panelSection } from './admin-panel.js';
import { showRanked } from './admin-ranked.js';
import { countryName } from './admin-words.js';

/** @typedef {import('./admin-state.js').Card} Card */

export function showCountries(/** @type {Card | null} */ card, /** @type {string | null} */ problem, /** @type {string} */ within) {
  showRanked(
    $('#countries-body'),
    {
      id: 'countries-table',
      caption: `Countries, most visits first, ${within}`,
      head: ['Country', 'Visits'],
      rows:
        card?.countries?.map((c) => ({
          label: countryName(c.country),
          values: [c.visitor_days],
          filter: { dimension: 'country', value: c.country },
        })) ?? null,
      empty: `No visits ${within}.`,
    },
    problem,
  );
}

/** @type {import('./admin-panel.js').Panel} */
export const countriesPanel = {
  markup: () =>
    panelSection({
      id: 'countries',
      title: 'Countries',
      aboutWhat: 'About the countries',
      about:
        'Visits by the country of the address they came from, worked out when the visit came and kept as a two-letter code only (XX: unknown). Data: NRO (CC BY 4.0), via ip-location-db.',
    }),
  show: showCountries,
};
