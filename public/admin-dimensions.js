// @ts-check
// Made by `npm run dashboard` from shared/core/dimensions.ts, so do not edit: each dimension a filter can name, as the
// dashboard says it, the tab that lists it, and for one counted by name its list in the card's `devices`.

/** @typedef {import('../shared/contract/activity').FilterDimension} Dimension */
/** @typedef {{ filter: Dimension, label: string, words: import('../shared/core/dimensions').ValueWords, tab: string, card?: import('../shared/core/dimensions').NamesCard }} DimensionRow */

/** @type {ReadonlyArray<DimensionRow>} */
export const DIMENSION_ROWS = [
  { filter: 'page', label: 'Page', words: 'plain', tab: 'pages' },
  { filter: 'entry', label: 'Entry page', words: 'plain', tab: 'entry-pages' },
  { filter: 'exit', label: 'Exit page', words: 'plain', tab: 'exit-pages' },
  { filter: 'source', label: 'Source', words: 'source', tab: 'sources' },
  { filter: 'referrer', label: 'Site', words: 'plain', tab: 'referrers' },
  { filter: 'campaign', label: 'Campaign', words: 'campaign', tab: 'campaigns' },
  { filter: 'country', label: 'Country', words: 'country', tab: 'countries' },
  { filter: 'browser', label: 'Browser', words: 'maker', tab: 'browsers', card: 'browsers' },
  { filter: 'system', label: 'System', words: 'maker', tab: 'systems', card: 'systems' },
  { filter: 'device', label: 'Device', words: 'maker', tab: 'devices', card: 'types' },
  { filter: 'screen', label: 'Screen size', words: 'maker', tab: 'screen-sizes', card: 'screens' },
  { filter: 'goal', label: 'Goal', words: 'plain', tab: 'goals' },
  { filter: 'event', label: 'Event', words: 'plain', tab: 'events' },
];

/** The export's lists, in their columns' order. */
export const EXPORT_LISTS = ['countries', 'browsers', 'campaigns', 'screens'];
