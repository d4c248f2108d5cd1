import { z } from 'zod';
import { importBodySchema, importedDaySchema, importHitSchema } from './import';
import { plausibleEventSchema } from './plausible-event';
import { beaconBodySchema, serverBatchSchema, serverHitSchema } from './hits';

/** What a request body's schema is called in docs/openapi.json, and what the document says of it and its fields. */
export interface InputNote {
  id: string;
  description?: string;
  /** The fields' descriptions: docs laid over the parser's own schema, which alone says what a field may hold. */
  fields?: Record<string, string>;
}

/** The parsers themselves are registered, so docs/openapi.json describes exactly what is accepted. */
export const inputs = z.registry<InputNote>();

const ENGAGEMENT =
  "A page view's engagement on `path` (neither a page load nor an event, never with `event` or `subject`): `ms` how long it was visible and focused (0 to 86400000), `scroll` the deepest it was read (0 to 100 %), and `since_ms` how long after its page load it was sent (0 to 86400000), so it joins that page load's visit, after midnight too. A bot's is left out (answered as ignored). Anything else is a 400 naming `engagement`.";

inputs.add(serverHitSchema, {
  id: 'ServerHit',
  description: "One request the site's server served.",
  fields: {
    at: 'When the site served it (default now); older than HIT_MAX_AGE_DAYS or more than five minutes ahead is refused.',
    address: "The visitor's IPv4 or IPv6 address; hashed with the key, never kept.",
    user_agent: "The visitor's User-Agent; its first 1024 characters are read (no browser's is near that), the rest cut, never refused.",
    path: 'The path served, of any length: it is taken as kept, its query string dropped but for the four campaign tags (utm_source, utm_medium, utm_campaign, ref) and the rest cut to 512 characters, so a long path or query never refuses a hit.',
    headers:
      "The visitor's request headers as the site's server received them: forward the whole header object (`req.headers`), values strings or lists of strings. Only `accept-language`, `sec-fetch-site`, `sec-fetch-mode`, `sec-fetch-dest`, `sec-ch-ua`, `sec-ch-ua-mobile` and `sec-ch-ua-platform` are read (names in any case, their first 1024 characters); `user-agent` and `accept` only say the set is whole. Any other header, of any length, is ignored and never refuses the hit; no value is queued, kept or logged. A header a whole set lacks was missing from the request; from a selection (no `user-agent` or `accept`), a missing header says nothing. When absent, the signals are not judged.",
    event: 'An event instead of a page request: never a page load.',
    props:
      'At most five short string pairs, with an event. A value that looks like an email address, an IP address or a run of six or more digits is refused (a 400 naming the prop on /api/hits; dropped on a beacon and counted in `refused_props`).',
    referrer:
      "Kept only as its host, only on a page load; one on one of the site's origins is a page of the site linking another (a route change), neither a source nor typed.",
    engagement: `${ENGAGEMENT} Its since_ms counts back from \`at\`.`,
  },
});
inputs.add(serverBatchSchema, { id: 'ServerHits' });
inputs.add(plausibleEventSchema, {
  id: 'PlausibleEvent',
  description: "Plausible's Events API body as its trackers send it; fields headcount does not read (`w`, `v`, `i`) are let be.",
  fields: {
    n: '`pageview`, `engagement` or a custom event name (lowercase letters, digits, - and _).',
    u: "The page's URL: only its path is kept (and its hash with `h: 1`).",
    d: "The site's name, or the host of one of its origins.",
    p: 'Custom props: at most five, read as strings; a value that could carry a person is dropped.',
  },
});

inputs.add(beaconBodySchema, {
  id: 'Beacon',
  description: 'What a browser may say: nothing that could name it (the address comes from the connection, the agent from User-Agent).',
  fields: {
    path: "The page's path, with only the campaign tags of its query; a longer path is cut to 512 characters, never refused (the body is at most 4 KB).",
    status: "Asks whether this scan of `subject` is the visitor's first (needs a subject).",
    referrer:
      "The referring page: another site's is kept as its host; one of this site's origins (the snippet sends the page before on a route change) is a page of the site linking another, neither a source nor typed.",
    engagement: ENGAGEMENT,
    width:
      "The viewport's width in CSS pixels, on a page load: kept only as its screen size (phone under 576, tablet under 992, laptop under 1440, else desktop), never as the number.",
    event: 'An event instead of a page request: never a page load.',
    props:
      'At most five short string pairs, with an event. A value that looks like an email address, an IP address or a run of six or more digits is refused (a 400 naming the prop on /api/hits; dropped on a beacon and counted in `refused_props`).',
  },
});
inputs.add(importHitSchema, {
  id: 'ImportHit',
  description: "One request read from a web server's access log.",
  fields: {
    at: 'When the site served it, with its zone; no older bound, and more than five minutes ahead is refused.',
    address: "The client's IPv4 or IPv6 address as logged; hashed with the key, never kept, queued or logged.",
    user_agent:
      "As logged ('' when the request sent none: a bot's); its first 1024 characters are read, the rest cut, never refused. Absent or null when the log format records no agent (the common format): the agent is then not judged, and the person is the address alone.",
    method: 'Methods other than GET and HEAD are not counted.',
    path: "The request target as logged, of any length, as POST /api/hits takes a path: it is taken as kept, its query string dropped but for the four campaign tags (utm_source, utm_medium, utm_campaign, ref) and the rest cut to 512 characters, so a long path (a scanner's probe) never refuses the line or its batch.",
    status: 'As logged: a redirect (301, 302, 303, 307, 308) is not counted; a GET answered 2xx or 3xx (304 included) is a page load.',
    referrer:
      'Kept only as its host, only on a page load; one on the site itself (`host`, or one of ALLOWED_ORIGINS) is a page of the site linking another, neither a source nor typed. The text past 2048 characters is cut, never refused.',
    host: 'The virtual host the request was for, when the log names it; one longer than 253 characters names no host and is read as not logged, never refused.',
  },
});
inputs.add(importedDaySchema, {
  id: 'ImportedDay',
  description: "One day's totals from another tool's export (Plausible's CSV). People cannot be counted from them; the day's visits can.",
  fields: {
    visitors: "The tool's daily unique visitors: the day's visits by people.",
    pages: 'Pageviews by page; the query string is dropped.',
    sources: "Visitors by the tool's source name.",
    countries: 'Visitors by two-letter country code.',
  },
});
inputs.add(importBodySchema, {
  id: 'ImportBatch',
  description: "A batch of an import: log requests or daily totals, not both; neither asks the import's window.",
  fields: { until: 'The last day to take (not after today); by default the day before the first day counted live.' },
});
