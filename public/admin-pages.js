// @ts-check
// Pages | Entry pages | Exit pages: people's pageviews of each path, the visits that read it and how long and how far
// they read it, and the pages visits began and ended on.
import { $ } from './admin-dom.js';
import { panelSection } from './admin-panel.js';
import { showRanked } from './admin-ranked.js';
import { durationWords } from './admin-words.js';

/** A dash where no visit engaged with the page. */
const orDash = (/** @type {number | null | undefined} */ n, /** @type {(n: number) => string} */ words) =>
  typeof n === 'number' ? words(n) : '–';

/** @typedef {import('./admin-state.js').Card} Card */

export function showPages(/** @type {Card | null} */ card, /** @type {string | null} */ problem, /** @type {string} */ within) {
  showRanked(
    $('#pages-body'),
    {
      id: 'pages-table',
      caption: `Pages, most pageviews first, ${within}`,
      head: ['Page', 'Pageviews', 'Visits', 'Time', 'Scroll'],
      rows:
        card?.pages?.map((p) => ({
          label: p.path,
          values: [p.page_loads, p.people, orDash(p.time_on_page, durationWords), orDash(p.scroll_depth, (n) => `${n}%`)],
          filter: { dimension: 'page', value: p.path },
        })) ?? null,
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
  showRanked(
    $('#exit-pages-body'),
    {
      id: 'exit-pages-table',
      caption: `Exit pages, most visits first, ${within}`,
      head: ['Exit page', 'Visits'],
      rows: card?.exit_pages?.map((p) => ({ label: p.path, values: [p.people], filter: { dimension: 'exit', value: p.path } })) ?? null,
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
        'Pageviews: each page opened in a browser. Visits: the visits that read the page (a visit is one visitor on one day, in the site’s time zone). Time on page: the mean time the visits that sent it read the page, visible and focused; scroll depth: how far down they read, on average. Entry and exit pages: the page each visit began and ended on. A click on a page shows only the visits that read it (began or ended on it), on every panel.',
      tabs: [
        { id: 'pages', label: 'Pages', wide: true },
        { id: 'entry-pages', label: 'Entry pages' },
        { id: 'exit-pages', label: 'Exit pages' },
      ],
    }),
  show: showPages,
};
