// @ts-check
// Pages | Entry pages: people's pageviews of each path and the visits that read it, and the pages visits began on.
import { $ } from './admin-dom.js';
import { panelSection } from './admin-panel.js';
import { showRanked } from './admin-ranked.js';

/** @typedef {import('./admin-state.js').Card} Card */

export function showPages(/** @type {Card | null} */ card, /** @type {string | null} */ problem, /** @type {string} */ within) {
  showRanked(
    $('#pages-body'),
    {
      id: 'pages-table',
      caption: `Pages, most pageviews first, ${within}`,
      head: ['Page', 'Pageviews', 'Visits'],
      rows:
        card?.pages?.map((p) => ({ label: p.path, values: [p.page_loads, p.people], filter: { dimension: 'page', value: p.path } })) ??
        null,
      empty: `No pageviews ${within}.`,
    },
    problem,
  );
  showRanked(
    $('#entry-pages-body'),
    {
      id: 'entry-pages-table',
      caption: `Entry pages, most visits first, ${within}`,
      head: ['Entry page', 'Visits'],
      rows: card?.entry_pages?.map((p) => ({ label: p.path, values: [p.people], filter: { dimension: 'entry', value: p.path } })) ?? null,
      empty: `No visits ${within}.`,
    },
    problem,
  );
}

/** @type {import('./admin-panel.js').Panel} */
export const pagesPanel = {
  markup: () =>
    panelSection({
      id: 'pages',
      title: 'Pages',
      aboutWhat: 'About the pages',
      about:
        'Pageviews: each page opened in a browser. Visits: the visits that read the page (a visit is one visitor on one day, in the site’s time zone). Entry pages: the page each visit began on. A click on a page shows only the visits that read it, on every panel.',
      tabs: [
        { id: 'pages', label: 'Pages' },
        { id: 'entry-pages', label: 'Entry pages' },
      ],
    }),
  show: showPages,
};
