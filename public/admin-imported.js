// @ts-check
// The period's totals imported from another tool (Plausible's export), in a panel of their own shown only when some day
// of the period has them: another tool's daily totals, not headcount's count, and people cannot be rebuilt from them.
import { $ } from './admin-dom.js';
import { tile } from './admin-headline.js';
import { showRanked } from './admin-ranked.js';
import { state } from './admin-state.js';
import { countWords, countryName, shortDay } from './admin-words.js';

/** @typedef {import('./admin-state.js').Card} Card */

/** A tool's name as its makers write it ("plausible" is Plausible); one the list does not know stays as it is. */
const TOOL_NAMES = /** @type {Record<string, string>} */ ({ plausible: 'Plausible' });

export function showImported(/** @type {Card | null} */ card, /** @type {string} */ words) {
  const imported = card?.imported;
  $('#imported').hidden = !imported;
  $('#headline-imported').hidden = !imported;
  if (!imported) return;
  const tools = imported.tools.map((tool) => TOOL_NAMES[tool] ?? tool).join(' and ');
  const span =
    imported.from === imported.to
      ? `on ${shortDay(imported.from, state.appToday)}`
      : `from ${shortDay(imported.from, state.appToday)} to ${shortDay(imported.to, state.appToday)}`;
  const days = countWords(imported.days, 'day', 'days');
  $('#imported-tools').textContent = tools;
  $('#imported-period').textContent = words;
  $('#imported-note').textContent =
    `Daily totals counted by ${tools} before headcount began, imported for ${days} of the period (${span}): its daily visitors are visits, its pageviews pageviews. ` +
    "People cannot be rebuilt from daily totals (someone who came back is in every day's total), so the people figures leave these days out and count from the first person headcount saw itself; the visits go back to the first imported day.";
  $('#headline-imported').textContent =
    `Visits include the daily visitors imported from ${tools} for ${days} (${span}). People do not: they cannot be rebuilt from daily totals.`;
  tile('imported_visits', imported.visits, 'visits');
  if (typeof imported.page_loads === 'number') tile('imported_page_loads', imported.page_loads, 'pageviews');
  else {
    tile('imported_page_loads', null);
    $('[data-figure="imported_page_loads"] .change').textContent = 'not in the export';
  }
  showRanked(
    $('#imported-pages-body'),
    {
      id: 'imported-pages-table',
      caption: 'Imported pages, most pageviews first',
      head: ['Page', 'Pageviews'],
      rows: imported.pages.map((p) => ({ label: p.path, values: [p.page_loads] })),
      empty: 'The imported totals name no page on these days.',
    },
    null,
  );
  showRanked(
    $('#imported-sources-body'),
    {
      id: 'imported-sources-table',
      caption: 'Imported sources, as the tool names them, most visits first',
      head: ['Source', 'Visits'],
      rows: imported.sources.map((s) => ({ label: s.source, values: [s.visitor_days] })),
      empty: 'The imported totals name no source on these days.',
    },
    null,
  );
  showRanked(
    $('#imported-countries-body'),
    {
      id: 'imported-countries-table',
      caption: 'Imported countries, most visits first',
      head: ['Country', 'Visits'],
      rows: imported.countries.map((c) => ({ label: `${countryName(c.country)} (${c.country})`, values: [c.visitor_days] })),
      empty: 'The imported totals name no country on these days.',
    },
    null,
  );
}
