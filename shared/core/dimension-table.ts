// The one table of dimensions: what a filter can name, and where each one is carried from a hit to the dashboard. A new
// dimension is a row here; shared/core/dimensions.ts derives the rest, and `npm run dashboard` the dashboard's list.

/** How the dashboard says a value: as written, a source group's name, a campaign's tags, a country's name, a maker's name. */
export type ValueWords = 'plain' | 'source' | 'campaign' | 'country' | 'maker';

export interface DimensionRow {
  /** The filter's name, `filter=<filter>:<value>`. */
  filter: string;
  /** What a value is, in the filter's text; none when the name says it. */
  about?: string;
  /** The queue message's field a hit carries it in. */
  hit?: string;
  /** The visitor-day's field its values are read from. */
  kept?: string;
  /** The day rollup's field that counts it. */
  rollup: string;
  /** `names`: visitor-days by each name a hit carried (a new one of these needs only its row and its hit field). */
  counts?: 'names';
  /** The period report's list of a `names` dimension, in `devices`. */
  card?: string;
  /** The export's list column, and its place among the list columns. */
  export?: { column: string; at: number };
  /** Values are kept upper case. */
  upper?: true;
  /** The dashboard's words: the filter chip's name, how a value reads, and the panel's tab that lists it. */
  label: string;
  words: ValueWords;
  tab: string;
  /** No filter cells: its value moves as later page loads come, and a sketch cannot give a person back, so it is read from the rows. */
  cells?: false;
}

export const DIMENSION_TABLE = [
  {
    filter: 'page',
    about: 'a path the visitor-day requested',
    hit: 'path',
    kept: 'paths',
    rollup: 'people_paths',
    label: 'Page',
    words: 'plain',
    tab: 'pages',
  },
  {
    filter: 'entry',
    about: 'its first page',
    hit: 'path',
    kept: 'entry',
    rollup: 'entry_pages',
    label: 'Entry page',
    words: 'plain',
    tab: 'entry-pages',
  },
  {
    filter: 'exit',
    about: 'its last page',
    hit: 'path',
    kept: 'exit',
    rollup: 'exit_pages',
    label: 'Exit page',
    words: 'plain',
    tab: 'exit-pages',
    cells: false,
  },
  {
    filter: 'source',
    about: 'a source group (linkedin, github, search, other, typed)',
    hit: 'source',
    kept: 'sources',
    rollup: 'sources',
    label: 'Source',
    words: 'source',
    tab: 'sources',
  },
  {
    filter: 'referrer',
    about: 'a linking host',
    hit: 'source',
    kept: 'sources',
    rollup: 'referrer_people',
    label: 'Site',
    words: 'plain',
    tab: 'referrers',
  },
  {
    filter: 'campaign',
    about: '`source|medium|campaign` (an absent tag empty)',
    hit: 'campaign',
    kept: 'campaigns',
    rollup: 'campaigns',
    export: { column: 'campaigns', at: 3 },
    label: 'Campaign',
    words: 'campaign',
    tab: 'campaigns',
  },
  {
    filter: 'country',
    hit: 'country',
    kept: 'country',
    rollup: 'countries',
    export: { column: 'countries', at: 1 },
    upper: true,
    label: 'Country',
    words: 'country',
    tab: 'countries',
  },
  {
    filter: 'browser',
    hit: 'browser',
    kept: 'browsers',
    rollup: 'browsers',
    counts: 'names',
    card: 'browsers',
    export: { column: 'browsers', at: 2 },
    label: 'Browser',
    words: 'maker',
    tab: 'browsers',
  },
  {
    filter: 'system',
    hit: 'system',
    kept: 'systems',
    rollup: 'systems',
    counts: 'names',
    card: 'systems',
    label: 'System',
    words: 'maker',
    tab: 'systems',
  },
  {
    filter: 'device',
    hit: 'device',
    kept: 'devices',
    rollup: 'devices',
    counts: 'names',
    card: 'types',
    label: 'Device',
    words: 'maker',
    tab: 'devices',
  },
  {
    filter: 'screen',
    about: 'a viewport width bucket (phone, tablet, laptop, desktop)',
    hit: 'screen',
    kept: 'screens',
    rollup: 'screens',
    counts: 'names',
    card: 'screens',
    export: { column: 'screens', at: 4 },
    label: 'Screen size',
    words: 'maker',
    tab: 'screen-sizes',
  },
  { filter: 'goal', about: 'a goal of GOALS reached', rollup: 'goals', label: 'Goal', words: 'plain', tab: 'goals' },
  {
    filter: 'event',
    about: 'an event name sent',
    hit: 'event',
    kept: 'events',
    rollup: 'events',
    label: 'Event',
    words: 'plain',
    tab: 'events',
  },
] as const satisfies readonly DimensionRow[];
