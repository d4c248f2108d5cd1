import { z } from 'zod';
import { keptPath } from '../core/identity/paths';
import { eventNameSchema, propsSchema, PROPS_LIMITS } from '../core/events/events';
import { siteNameSchema } from '../core/sites/sites';

/**
 * The bounds of one ingest request: a request over them is refused whole, with the bound named (`(body)`, `hits`).
 * Nothing else refuses a hit for its length: a long path, query, referrer, agent or header is taken as the rest of the
 * hit is, cut to what is kept (the path to 512 characters, with only the four campaign tags of its query).
 */
export const INGEST_LIMITS = {
  maxHits: 500,
  maxHitsBodyBytes: 512 * 1024,
  maxBeaconBodyBytes: 4 * 1024,
  maxFutureMs: 5 * 60 * 1000,
} as const;

const subject = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, - or _');

/** A subject's name (a QR code's thing): also the `{id}` of GET /api/admin/subjects/{id}. */
export const subjectSchema = subject;

const store = z.string().regex(/^[a-z0-9-]{1,32}$/, 'must be 1 to 32 lowercase letters, digits or -');

// A path of any length: it is judged as kept (shared/core/identity/paths.ts keptPath), its query dropped but for the four
// campaign tags and the rest cut to MAX_PATH_LENGTH, so a long one is never refused and nothing longer travels on.
// Each text cut here is cut by `overwrite` (a string made another string in place), not `transform`: a transform is a
// pipe zod runs apart, which made checking a hit of /api/hits several times slower.
const pathField = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
  .min(1, 'must not be empty')
  .overwrite(keptPath);

// Only the referrer's host is ever read (on a page load), and a host is at most 253 characters: the rest is cut.
const referrer = z
  .string({ error: 'must be a string' })
  .overwrite((value) => value.slice(0, 2048))
  .nullish();

/**
 * The request's headers as the site's server received them (its whole `req.headers`), for the signals a browser sends:
 * only the signal headers are read, any case, a value a string or a list of strings (shared/core/identity/signals.ts
 * forwardedSignals judges only what the set can say). Any other header, of any length or kind, is ignored, never
 * refused; when absent, the signals are not judged.
 */
const forwardedHeaders = z.record(z.string(), z.unknown(), { error: 'must be an object of header names and values' });

/** One hit as the site's server sends it. */
export const serverHitSchema = z
  .strictObject({
    at: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time with a zone, like 2026-10-23T10:00:00Z' }).optional(),
    address: z
      .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
      .min(1)
      .max(64),
    // Read for the agent family and the bot rules only; no browser's is near 1024 characters, so the rest is cut.
    user_agent: z
      .string({ error: 'must be a string' })
      .overwrite((value) => value.slice(0, 1024))
      .default(''),
    path: pathField,
    referrer,
    store: store.default('site'),
    page_load: z.boolean({ error: 'must be true or false' }).default(false),
    subject: subject.nullish(),
    /** The operator cookie's value or the operator key, when the visitor's request carried one. */
    operator: z.string().max(256).nullish(),
    headers: forwardedHeaders.optional(),
    /** An event instead of a page request: its name, and at most five short props that carry no person. */
    event: eventNameSchema.optional(),
    props: propsSchema.optional(),
    /** The site that served it, one of SITES; optional when one site is declared. */
    site: siteNameSchema.optional(),
  })
  .refine((hit) => hit.props === undefined || hit.event !== undefined, {
    path: ['props'],
    message: 'need an event: only an event carries props',
  });

export type ServerHit = z.infer<typeof serverHitSchema>;

/** The body of POST /api/hits holding many hits: `{ "hits": [...] }`. */
export const serverBatchSchema = z.strictObject({
  hits: z
    .array(serverHitSchema, { error: 'must be an array of hits' })
    .min(1, 'must hold at least one hit')
    .max(INGEST_LIMITS.maxHits, `must hold at most ${INGEST_LIMITS.maxHits} hits`),
});

/** A beacon's props as a browser may send them: the shape checked here, a value that could carry a person dropped later. */
const beaconProps = z
  .record(z.string().regex(/^[a-z][a-z0-9_]{0,31}$/, 'keys must be lowercase letters, digits or _'), z.string().max(PROPS_LIMITS.value))
  .refine((props) => Object.keys(props).length <= PROPS_LIMITS.count, `must hold at most ${PROPS_LIMITS.count} props`);

/** The body of POST /api/beacon: what a browser may say, and nothing that could name it. */
export const beaconBodySchema = z
  .strictObject({
    path: pathField,
    referrer,
    subject: subject.nullish(),
    /** The operator mark the snippet keeps in the operator's browser: the operator cookie's value, checked by the server. */
    operator: z.string().max(256, 'must be at most 256 characters').nullish(),
    /** Asks whether this scan of the subject is the visitor's first: the answer says `"status": "new" | "returning"`. */
    status: z.boolean({ error: 'must be true or false' }).optional(),
    /** An event instead of a page load (`headcount('signup', {…})`, a click the snippet watches). */
    event: eventNameSchema.optional(),
    /** The event's props: a value that could carry a person is dropped (and counted as refused), not a 400. */
    props: beaconProps.optional(),
    /** The site the page is of (the snippet's `data-site`), one of SITES; by default the site whose origin the page is on. */
    site: siteNameSchema.optional(),
  })
  .refine((body) => body.props === undefined || body.event !== undefined, {
    path: ['props'],
    message: 'need an event: only an event carries props',
  })
  .refine((body) => body.status !== true || Boolean(body.subject), {
    path: ['status'],
    message: 'needs a subject: only a scan of a subject has a status',
  });

export type BeaconBody = z.infer<typeof beaconBodySchema>;
