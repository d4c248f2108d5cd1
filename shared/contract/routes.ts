import { z } from 'zod';
import { activityQuerySchema, visitorsQuerySchema } from './queries';
import { siteQuerySchema } from '../core/sites/sites';
import { exportQuerySchema } from './queries';
import { importBodySchema } from './import';
import { beaconBodySchema, serverBatchSchema, serverHitSchema } from './hits';
import { plausibleEventSchema } from './plausible-event';
import { ASSETS } from './assets';
import { detailQuerySchema as subjectQuerySchema, listQuerySchema as subjectsListQuerySchema } from './queries';
import { PeriodReport, CSV_COLUMNS, DayVisitors, ExportDays, NowCard } from './activity';
import { filtersText } from '../core/dimensions';
import { OperatorMark, SessionState, SubjectFigures, SubjectsPage } from './admin';
import { Subject } from './common';
import { PeopleCount, Pulse } from './count';
import { Accepted, BeaconAccepted, ImportAccepted } from './ingest';
import { LINK_ROUTES } from './link-routes';
import { KEY_ROUTES } from './key-routes';
import { EMAIL_ROUTES } from './email-routes';
import { CONFIG_ROUTES } from './config-routes';
import type { Route } from './route';
import { RetentionCard } from './retention';
import { retentionQuerySchema } from './queries';
import { error, json, NO_STORE, OPERATOR, OPERATOR_ERRORS, OPERATOR_HEADERS, operatorJson, ref, sharedAnswer, text } from './responses';

// `npm run openapi` makes docs/openapi.json from these routes; a test holds the file to them.

type Json = Record<string, unknown>;

/** The words of every read's `site`. */
const SITE_WORDS =
  'A site declared in SITES, or `*` for all of them together (each person once); by default the only site, or all of them when several are declared. Any other is 400 naming `site`.';

/** The query of a read that takes only `site`. */
const siteReadSchema = z.object({ site: siteQuerySchema });

const ORIGIN = [{ $ref: '#/components/parameters/Origin' }];

/** What a body sent to be counted may be answered besides its own. */
const BODY_ERRORS = {
  '400': sharedAnswer('BadRequest'),
  '413': sharedAnswer('TooLarge'),
  '415': sharedAnswer('UnsupportedMediaType'),
  '503': sharedAnswer('Unavailable'),
};

const INGEST_KEY = { security: [{ ingestKey: [] }] };

const preflight = (operationId: string, path: string, summary: string): Route => ({
  method: 'options',
  path,
  operationId,
  summary,
  description: '204 for an allowed origin, 403 otherwise.',
  security: [],
  parameters: ORIGIN,
  responses: { '204': sharedAnswer('Preflight'), '403': sharedAnswer('OriginNotAllowed') },
});

const SESSION_HEADERS = {
  ...NO_STORE,
  'Set-Cookie': text(
    'The session cookie `__Host-headcount_admin` (HttpOnly, Secure, SameSite=Strict, Path=/, Max-Age its hours) and, on sign-in, the operator cookie; Max-Age=0 removes a session that ended.',
  ),
};

const CROSS_SITE = error(
  "Sec-Fetch-Site says another site's page sent it: the session is only changed from the dashboard itself.",
  NO_STORE,
);

/** The words of the card's and the export's `filter`. */
const FILTER_WORDS =
  'Repeated, AND-ed: `dimension:value` split at the first `:`, a leading `!` for "is not". ' +
  filtersText() +
  ". Every figure then counts only people's visitor-days that match all of them. One filter reads its cells (a query a read); two or more, or one with `!`, are asked of the days' visitor-days, closed days from their columnar day files and today from the store, whole, and take at most 400 days. An unknown dimension or a malformed value is 400 naming `filter`.";

export const ROUTES: Route[] = [
  {
    method: 'post',
    path: '/api/hits',
    operationId: 'ingest-hits',
    summary: "The site's server reports what it served",
    description: 'One hit or `{"hits": [...]}` (at most 500 hits, 512 KB). The whole request is refused on one bad hit.',
    ...INGEST_KEY,
    requestBody: {
      required: true,
      content: { 'application/json': { schema: { oneOf: [ref(serverHitSchema), ref(serverBatchSchema)] } } },
    },
    responses: {
      '202': json('Queued.', Accepted),
      '401': sharedAnswer('Unauthorized'),
      '429': sharedAnswer('TooManyAttempts'),
      ...BODY_ERRORS,
    },
  },
  {
    method: 'post',
    path: '/api/beacon',
    operationId: 'ingest-beacon',
    summary: 'A browser reports a page load',
    description:
      "Anonymous, from ALLOWED_ORIGINS; JSON or `text/plain` (as `sendBeacon` sends it), at most 4 KB. The operator key (either header), the operator cookie or the snippet's `operator` mark makes the beacon the site's own read. Such a claim is a guess at the operator key: a wrong one is counted against the address as a wrong key is (429 once its free tries are spent), and the answer is the same whether it was right or wrong (`status`, when asked, is `returning`, and no cookie is set). In `cookie` identity mode the answer to a beacon without a claim may set the `visitor_id` cookie.",
    security: [{}, { operatorCookie: [] }, { operatorBearer: [] }, { operatorKey: [] }],
    parameters: ORIGIN,
    requestBody: {
      required: true,
      content: {
        'application/json': { schema: ref(beaconBodySchema) },
        'text/plain': { schema: { type: 'string', description: 'The same JSON object as text.' } },
      },
    },
    responses: {
      '202': json('Queued.', BeaconAccepted, {
        'Access-Control-Allow-Origin': text(),
        'Set-Cookie': text('`visitor_id` (cookie mode only).'),
      }),
      ...BODY_ERRORS,
      '403': sharedAnswer('OriginNotAllowed'),
      '429': sharedAnswer('TooManyAttempts'),
    },
  },
  preflight('ingest-beacon-preflight', '/api/beacon', 'CORS preflight of the beacon'),
  {
    method: 'post',
    path: '/api/event',
    operationId: 'ingest-event',
    summary: "Plausible's Events API, as its trackers send it",
    description:
      "A page load (`n: pageview`) or a custom event of the site whose name or origin's host is `d`, read as the beacon is, under its origin, bot and privacy rules: only the path of `u` is kept (its hash too with `h: 1`), never its query string. `engagement` events (`e`, `sd`) are the snippet's engagement. Revenue is refused (400 naming `revenue`). So a site that uses Plausible's trackers moves by changing their host (docs/api-keys.md).",
    security: [{}],
    parameters: ORIGIN,
    requestBody: {
      required: true,
      content: {
        'application/json': { schema: ref(plausibleEventSchema) },
        'text/plain': { schema: { type: 'string', description: 'The same JSON object as text, as the trackers send it.' } },
      },
    },
    responses: {
      '202': json('Queued.', BeaconAccepted, { 'Access-Control-Allow-Origin': text() }),
      ...BODY_ERRORS,
      '403': sharedAnswer('OriginNotAllowed'),
      '429': sharedAnswer('TooManyAttempts'),
    },
  },
  preflight('ingest-event-preflight', '/api/event', "CORS preflight of Plausible's Events API"),
  {
    method: 'post',
    path: '/api/import',
    operationId: 'import-hits',
    summary: "The import command sends a site's history: its log's requests, or another tool's daily totals",
    description:
      '`npm run import` (docs/import.md) sends a batch at a time: `{"hits": [...]}` (at most 1,000 log requests) or `{"days": [...]}` (at most 400 days of Plausible\'s totals), at most 1 MB. Each request is classified and hashed as on POST /api/hits, with no age limit, and the counted ones go to the imports queue (`<HITS_QUEUE>-imports`), each message\'s id made from the lines it carries, so a batch sent again is kept once. Only days on or before `until` are taken (by default the day before the first day counted live, which the first import fixes); the others are `skipped`. A request with neither hits nor days answers the import\'s window and changes nothing. The whole request is refused on one bad line.',
    ...INGEST_KEY,
    requestBody: { required: true, content: { 'application/json': { schema: ref(importBodySchema) } } },
    query: {
      schema: siteReadSchema,
      describe: {
        site: 'The site of SITES the lines are counted for (and with all sites); the first declared when not given. `*` is 400 naming `site`.',
      },
    },
    responses: {
      '202': json('Queued (hits) or kept (days); or, for an empty batch, the window only.', ImportAccepted),
      '401': sharedAnswer('Unauthorized'),
      '429': sharedAnswer('TooManyAttempts'),
      ...BODY_ERRORS,
    },
  },
  {
    method: 'get',
    path: '/api/pulse',
    operationId: 'pulse',
    summary: 'The count, public',
    description:
      'Public and cacheable for a minute (`Cache-Control: public, max-age=60`); CORS for ALLOWED_ORIGINS. Never fails on the count: a store that cannot answer is null figures.',
    security: [],
    parameters: ORIGIN,
    query: { schema: siteReadSchema, describe: { site: SITE_WORDS } },
    responses: { '200': json('The count.', Pulse, { 'Cache-Control': text() }) },
  },
  preflight('pulse-preflight', '/api/pulse', 'CORS preflight of the pulse'),
  {
    method: 'get',
    path: '/api/admin/visitors/people',
    operationId: 'admin-people',
    summary: 'The count, for the operator',
    description: 'The people counted once, all time, and the visits by people; two point reads whatever the number of visitors.',
    security: OPERATOR,
    query: { schema: siteReadSchema, describe: { site: SITE_WORDS } },
    responses: { '200': operatorJson('The count.', PeopleCount), ...OPERATOR_ERRORS },
  },
  {
    method: 'get',
    path: '/api/admin/activity',
    operationId: 'admin-activity',
    summary: 'The period report',
    description:
      'A period: the last `days` UTC days (today included), every day since the first kept (`days=all`), or `from` to `to`. Only the days that can hold data (the first counted or imported day to today) are read; a range over 400 days is clamped to them, and the answer says so in `clamped`.',
    security: OPERATOR,
    query: {
      schema: activityQuerySchema,
      describe: {
        site: SITE_WORDS,
        days: 'A whole number from 1 to 400, or `all`; not with `from` and `to`.',
        from: 'The first UTC day of a range (with `to`).',
        to: 'The last UTC day of a range (with `from`).',
        filter: FILTER_WORDS,
      },
    },
    responses: {
      '200': operatorJson('The card; `availability.available` false and null figures when the store cannot answer.', PeriodReport),
      '400': sharedAnswer('BadRequest'),
      ...OPERATOR_ERRORS,
    },
  },
  {
    method: 'get',
    path: '/api/admin/activity/visitors',
    operationId: 'admin-activity-visitors',
    summary: "One day's visitors",
    description: "The day's rows, one per daily token per store, first seen first.",
    security: OPERATOR,
    query: {
      schema: visitorsQuerySchema,
      describe: {
        site: SITE_WORDS,
        day: 'A real UTC calendar day, YYYY-MM-DD.',
        next: 'The `next` token of the page before.',
      },
    },
    responses: { '200': operatorJson("The day's table.", DayVisitors), '400': sharedAnswer('BadRequest'), ...OPERATOR_ERRORS },
  },
  {
    method: 'get',
    path: '/api/admin/subjects',
    operationId: 'admin-subjects',
    summary: 'Every subject with its totals',
    description: "Sorted and paged by the store's continuation.",
    security: OPERATOR,
    query: {
      schema: subjectsListQuerySchema,
      describe: {
        site: SITE_WORDS,
        sort: 'What the subjects are sorted by: subject, scans, unique, repeat, or the last scan (the default).',
        order: 'asc or desc (the default).',
        limit: 'A whole number from 1 to 200.',
        continuation: 'The `continuation` of the page before, for the same sort and order.',
      },
    },
    responses: {
      '200': operatorJson('A page of subjects.', SubjectsPage),
      '400': sharedAnswer('BadRequest'),
      '503': sharedAnswer('Unavailable'),
      ...OPERATOR_ERRORS,
    },
  },
  {
    method: 'get',
    path: '/api/admin/subjects/{id}',
    operationId: 'admin-subject',
    summary: 'One subject with its figures by day',
    description: '404 for a subject never scanned.',
    security: OPERATOR,
    query: { schema: subjectQuerySchema, describe: { site: SITE_WORDS, days: 'A whole number from 1 to 366.' } },
    parameters: [{ name: 'id', in: 'path', required: true, schema: ref(Subject) }],
    responses: {
      '200': operatorJson('The subject.', SubjectFigures),
      '400': sharedAnswer('BadRequest'),
      '404': error('No scan of this subject has been kept.'),
      '503': sharedAnswer('Unavailable'),
      ...OPERATOR_ERRORS,
    },
  },
  {
    method: 'get',
    path: '/api/admin/mark',
    operationId: 'admin-mark',
    summary: 'The operator mark and its links',
    description:
      "The mark is the operator cookie's value; on each allowed site, the link that sets it in a browser and the one that removes it.",
    security: OPERATOR,
    responses: { '200': operatorJson('The mark.', OperatorMark), ...OPERATOR_ERRORS },
  },
  {
    method: 'get',
    path: '/api/admin/now',
    operationId: 'admin-now',
    summary: 'Who is on the site now',
    description:
      "The last 30 minutes, read from the facts keep-hits wrote (not the fold's documents), so it is as fresh as the queue: one query in today's partition, and one in yesterday's in the first half hour of a UTC day. Any query parameter (a cache-buster) is let be.",
    security: OPERATOR,
    query: { schema: siteReadSchema, describe: { site: SITE_WORDS } },
    responses: {
      '200': operatorJson('The figures; `availability.available` false and null figures when the store cannot answer.', NowCard),
      ...OPERATOR_ERRORS,
    },
  },
  {
    method: 'get',
    path: '/api/admin/retention',
    operationId: 'admin-retention',
    summary: 'Retention by first month and week',
    description:
      "The people first counted in each of the last `months` months and, for each later month, how many of them came in it, each once; and the last 12 weeks likewise; with a filter, how many came in each month on a visitor-day holding its value (no weeks). One query in the retention partition, and with a filter one in the value's cells partition: a document of figures for each cohort (N for N months, 12 for the weeks), never a sketch, whatever the people.",
    security: OPERATOR,
    query: {
      schema: retentionQuerySchema,
      describe: {
        site: SITE_WORDS,
        months: 'A whole number from 1 to 36 (12 when absent): the cohorts asked, this month the last.',
        filter:
          "At most one, `dimension:value` (the dimensions of the period report's `filter`): each month's cell then counts the cohort's people who came in that month on a visitor-day holding the value; a cohort's `people` stays the whole cohort, and `weeks` is null (kept for the whole site only). It reads the value's cells (one query more). Two filters, or one with `!`, are 400 naming `filter` (\"retention takes one filter\").",
      },
    },
    responses: {
      '200': json('The cohorts; `availability.available` false and null cohorts when the store cannot answer.', RetentionCard, NO_STORE),
      '400': sharedAnswer('BadRequest'),
      ...OPERATOR_ERRORS,
    },
  },
  {
    method: 'get',
    path: '/api/admin/export',
    operationId: 'admin-export',
    summary: 'The days of a range, as CSV or JSON',
    description:
      'One row a day from `from` to `to`: a point read a day that can hold data (the first counted or imported day to today; the other days are rows of zeros) and the visitors and visits summaries, whatever the range.',
    security: OPERATOR,
    query: {
      schema: exportQuerySchema,
      describe: {
        site: SITE_WORDS,
        from: 'The first UTC day, YYYY-MM-DD, included.',
        to: 'The last UTC day, YYYY-MM-DD, included; on or after `from`, at most 400 days from it, both included.',
        format: 'csv (a header row, then a row a day) or json (the default).',
        filter: FILTER_WORDS,
      },
    },
    responses: {
      '200': {
        description:
          'The rows: JSON (`format=json`, the default), or CSV (`format=csv`; RFC 4180 with a header row and CRLF line ends, columns `' +
          CSV_COLUMNS.join(',') +
          "`; lists as `name=count` joined by `; ` in one cell, a campaign as `source/medium/campaign`; a cell a spreadsheet would read as a formula gets a leading `'`).",
        headers: {
          ...OPERATOR_HEADERS,
          'Content-Disposition': text('On CSV only: `attachment; filename="headcount-<from>-<to>.csv"`.', {
            pattern: '^attachment; filename="headcount-\\d{4}-\\d{2}-\\d{2}-\\d{4}-\\d{2}-\\d{2}\\.csv"$',
          }),
        },
        content: { 'application/json': { schema: ref(ExportDays) }, 'text/csv': text() },
      },
      '400': error(
        'A missing or bad day, `from` after `to`, a range over 400 days or another format, the parameter named in `message` and listed in `issues`.',
      ),
      '503': error(
        'The store cannot answer now (`store_unavailable`): an export with nothing in it would read as a quiet stretch, so none is given; retry.',
      ),
      ...OPERATOR_ERRORS,
    },
  },
  {
    method: 'get',
    path: '/api/admin',
    operationId: 'admin-page',
    summary: 'The dashboard page',
    description:
      'The Admin tab; it asks for the operator key itself, and exchanges it for a session (POST /api/admin/session), so the page needs none. Never cached.',
    security: [],
    responses: {
      '200': {
        description: 'The page (gzipped when the browser takes gzip).',
        headers: {
          ETag: text(),
          'Content-Security-Policy': text(),
          'Strict-Transport-Security': text('HTTPS only, two years (browsers ignore it over plain HTTP).'),
          'Cross-Origin-Opener-Policy': text('same-origin'),
          'Permissions-Policy': text('Every powerful feature off (camera, microphone, geolocation, payment, USB…).'),
        },
        content: { 'text/html': text() },
      },
      '304': sharedAnswer('NotModified'),
    },
  },
  {
    method: 'get',
    path: '/api/assets/{name}',
    operationId: 'assets',
    summary: 'The scripts and styles of the pages',
    description:
      "Only the files named here; `headcount.js` and `headcount-pulse.js` may be loaded by any site (CORS `*`). The dashboard's page and modules name its parts at its version (`?v=`), and a part asked at it is kept a year (`immutable`): a new version names new addresses.",
    security: [],
    parameters: [
      { name: 'name', in: 'path', required: true, schema: { type: 'string', enum: Object.keys(ASSETS) } },
      {
        name: 'v',
        in: 'query',
        required: false,
        description: "The dashboard's version, as its page and modules name its parts: the answer is then kept a year.",
        schema: { type: 'string' },
      },
    ],
    responses: {
      '200': {
        description: 'The file (gzipped when the browser takes gzip).',
        headers: { ETag: text(), 'Cache-Control': text() },
        content: { 'text/javascript': text(), 'text/css': text() },
      },
      '304': sharedAnswer('NotModified'),
      '404': { description: 'Not one of the files served.', content: { 'text/plain': text(undefined, { maxLength: 0 }) } },
    },
  },
  {
    method: 'get',
    path: '/api/admin/session',
    operationId: 'admin-session-read',
    summary: 'Whether this browser is signed in',
    description:
      'The session (or the key) is checked and a session in use renewed. With neither, or with a session that has run out, the answer is `signed_in: false`, never an error.',
    security: [{ adminSession: [] }, { operatorBearer: [] }, { operatorKey: [] }, {}],
    responses: { '200': json('Signed in, or not.', SessionState, SESSION_HEADERS), ...OPERATOR_ERRORS },
  },
  {
    method: 'post',
    path: '/api/admin/session',
    operationId: 'admin-session-start',
    summary: 'Sign in: the operator key for a session',
    description:
      'Exchanges the operator key (`Authorization: Bearer <key>`) for a session cookie, so the dashboard never keeps the key. A cookie alone never makes a session.',
    security: [{ operatorBearer: [] }, { operatorKey: [] }],
    responses: { '200': json('Signed in.', SessionState, SESSION_HEADERS), '403': CROSS_SITE, ...OPERATOR_ERRORS },
  },
  {
    method: 'delete',
    path: '/api/admin/session',
    operationId: 'admin-session-end',
    summary: 'Sign out',
    description: "Removes the session cookie. Refused when the browser says another site's page sent it.",
    security: [],
    responses: { '204': { description: 'Signed out.', headers: SESSION_HEADERS }, '403': CROSS_SITE },
  },
  ...LINK_ROUTES,
  ...KEY_ROUTES,
  ...EMAIL_ROUTES,
  ...CONFIG_ROUTES,
];

/** The answers several routes share. */
export const RESPONSES: Record<string, Json> = {
  BadRequest: error('A bad field, named in `message` and listed in `issues`.'),
  Unauthorized: error(
    "The key is missing or wrong. A wrong key counts against the caller's address (see 429); once its free tries are spent, Retry-After says how long it now waits.",
    { 'Retry-After': text('After the last free try: whole seconds until the next check.', { pattern: '^[0-9]+$' }) },
  ),
  OperatorUnauthorized: error(
    "No operator key or session, a wrong key, a forged session cookie, or a session that has run out. A wrong key or forged cookie counts against the caller's address (see 429); with its last free try, Retry-After says how long it now waits.",
    {
      'WWW-Authenticate': text(undefined, { const: 'Bearer' }),
      ...NO_STORE,
      'Retry-After': text('After a failure past the free tries: whole seconds until the next check.', { pattern: '^[0-9]+$' }),
    },
  ),
  OriginNotAllowed: error(
    "The Origin is not in ALLOWED_ORIGINS (`origin_not_allowed`), or a beacon carries none (`origin_required`: a browser always names the page's origin; a server reports to POST /api/hits).",
  ),
  TooLarge: error('The body is over its bound (512 KB for POST /api/hits, 4 KB for a beacon): the message and `issues` name `(body)`.'),
  UnsupportedMediaType: error('Another content type.'),
  Unavailable: error(
    'The queue or the store cannot take or answer it now; nothing was enqueued (a request is enqueued whole or not at all): retry.',
  ),
  Preflight: {
    description: 'A CORS preflight from an allowed origin.',
    headers: {
      'Access-Control-Allow-Origin': text(),
      'Access-Control-Allow-Methods': text(),
      'Access-Control-Allow-Headers': text(),
      'Access-Control-Max-Age': text(),
    },
  },
  NotModified: { description: 'The browser holds these bytes already (If-None-Match).' },
  TooManyAttempts: error(
    'This address gave too many wrong guesses at this secret (the operator key, the ingest key, a link or its password), counted in the store so every instance and restart sees them: 5 are answered, then it waits 1 second before its next check, doubling with each further guess to at most 30; 15 minutes without one forgets them. Nothing it presents, the right secret included, is checked until then; a valid session is never slowed.',
    { 'Retry-After': text('Whole seconds until the next check.', { pattern: '^[0-9]+$' }), ...NO_STORE },
  ),
};

export const PARAMETERS: Record<string, Json> = { Origin: { name: 'Origin', in: 'header', required: false, schema: { type: 'string' } } };

export const SECURITY_SCHEMES: Record<string, Json> = {
  ingestKey: {
    type: 'apiKey',
    in: 'header',
    name: 'x-ingest-key',
    description: "INGEST_KEY: the site's server only.",
  },
  operatorBearer: {
    type: 'http',
    scheme: 'bearer',
    description: 'OPERATOR_KEY as `Authorization: Bearer <key>`, compared in constant time.',
  },
  operatorKey: {
    type: 'apiKey',
    in: 'header',
    name: 'x-operator-key',
    description: 'OPERATOR_KEY in its own header.',
  },
  operatorCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: 'headcount_operator',
    description:
      "Set by every answer to the operator key; on a beacon it marks the request as the site's own read. It opens no admin route.",
  },
  apiKey: {
    type: 'http',
    scheme: 'bearer',
    description:
      'A read-only API key (POST /api/admin/keys) as `Authorization: Bearer <key>`. It opens the Stats API and MCP, never an admin route.',
  },
  adminSession: {
    type: 'apiKey',
    in: 'cookie',
    name: '__Host-headcount_admin',
    description:
      'The Admin session the dashboard signs in to (POST /api/admin/session): a keyed token that runs out after ADMIN_SESSION_HOURS unused and 7 days after signing in, renewed while used; HttpOnly, Secure, SameSite=Strict. Admin reads take it or the key.',
  },
};

export const INFO = {
  info: {
    title: 'headcount',
    version: '0.1.0',
    description:
      'Counts the people who visit a website, each once, all time, without cookies or addresses. Every HTTP function the app registers (functions/*.ts), served under `/api` by the Functions host and by the local host alike. Every error is one envelope, `Error`. test/integration/openapi.test.ts holds this document to the registered routes and methods and validates real answers against it.',
  },
  servers: [
    {
      url: 'http://127.0.0.1:7071',
      description: 'npm start (the local host)',
    },
  ],
};
