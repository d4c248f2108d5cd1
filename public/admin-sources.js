// @ts-check
// Sources | Sites that link here | Campaigns: where visits came from, by group, by the site whose link they followed,
// and by a link's campaign tags, in pageviews.
import { $ } from './admin-dom.js';
import { panelSection } from './admin-panel.js';
import { showRanked } from './admin-ranked.js';
import { campaignKey, campaignWords, SOURCE_NAMES } from './admin-words.js';

/** @typedef {import('./admin-state.js').Card} Card */

export function showSources(/** @type {Card | null} */ card, /** @type {string | null} */ problem, /** @type {string} */ within) {
  const sources = card?.sources;
  const groups = /** @type {(keyof typeof SOURCE_NAMES)[]} */ (Object.keys(SOURCE_NAMES));
  showRanked(
    $('#sources-body'),
    {
      id: 'sources-table',
      caption: `Sources, most pageviews first, ${within}`,
      head: ['Source', 'Pageviews'],
      rows: sources
        ? groups
            .map((group) => ({
              label: SOURCE_NAMES[group],
              values: [sources[group]],
              filter: { dimension: /** @type {const} */ ('source'), value: group },
            }))
            .filter((row) => row.values[0] > 0)
            .sort((a, b) => b.values[0] - a.values[0])
        : null,
      empty: `No pageviews ${within}.`,
    },
    problem,
  );
  showRanked(
    $('#referrers-body'),
    {
      id: 'referrers-table',
      caption: `Sites that link here, most pageviews first, ${within}`,
      head: ['Site', 'Pageviews', 'Visits'],
      rows:
        card?.referrers?.map((r) => ({
          label: r.host,
          values: [r.page_loads, r.people],
          filter: { dimension: 'referrer', value: r.host },
        })) ?? null,
      empty: `No pageview came from another site ${within}.`,
    },
    problem,
  );
  showRanked(
    $('#campaigns-body'),
    {
      id: 'campaigns-table',
      caption: `Campaigns (source / medium / campaign), most pageviews first, ${within}`,
      head: ['Campaign (source / medium / campaign)', 'Pageviews'],
      rows:
        card?.campaigns?.map((c) => ({
          label: campaignWords(c),
          values: [c.page_loads],
          filter: { dimension: 'campaign', value: campaignKey(c) },
        })) ?? null,
      empty: `No pageview carried a campaign tag ${within}.`,
    },
    problem,
  );
}

/** @type {import('./admin-panel.js').Panel} */
export const sourcesPanel = {
  markup: () =>
    panelSection({
      id: 'sources',
      title: 'Sources',
      aboutWhat: 'About the sources',
      about:
        "Where pageviews came from: a group (search engines, LinkedIn, GitHub, other sites, or direct: typed, or a link that said nothing), the site whose link was followed, and a link's campaign tags (utm_source or ref, utm_medium, utm_campaign; nothing else of an address is kept).",
      tabs: [
        { id: 'sources', label: 'Sources' },
        { id: 'referrers', label: 'Sites that link here' },
        { id: 'campaigns', label: 'Campaigns' },
      ],
    }),
  show: showSources,
};
