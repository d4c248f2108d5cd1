import { z } from 'zod';

/** The bounds of one ingest request: a request over them is refused whole. */
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

const pathField = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
  .min(1, 'must not be empty')
  .max(2048, 'must be at most 2048 characters');

const referrer = z.string().max(2048, 'must be at most 2048 characters').nullish();

/**
 * The request's headers as the site's server received them, for the signals a browser sends (shared/identity/signals.ts):
 * only accept-language, sec-fetch-site, sec-fetch-mode, sec-fetch-dest and sec-ch-ua are read, any case. When present,
 * a header missing from it was missing from the request; when absent, the signals are not judged.
 */
const forwardedHeaders = z
  .record(
    z.string().max(64, 'names must be at most 64 characters'),
    z.string({ error: 'values must be strings' }).max(1024, 'values must be at most 1024 characters'),
  )
  .refine((headers) => Object.keys(headers).length <= 64, 'must hold at most 64 headers');

/** One hit as the site's server sends it. */
export const serverHitSchema = z.strictObject({
  at: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time with a zone, like 2026-10-23T10:00:00Z' }).optional(),
  address: z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
    .min(1)
    .max(64),
  user_agent: z.string({ error: 'must be a string' }).max(1024, 'must be at most 1024 characters').default(''),
  path: pathField,
  referrer,
  store: store.default('site'),
  page_load: z.boolean({ error: 'must be true or false' }).default(false),
  subject: subject.nullish(),
  /** The operator cookie's value or the operator key, when the visitor's request carried one. */
  operator: z.string().max(256).nullish(),
  headers: forwardedHeaders.optional(),
});

export type ServerHit = z.infer<typeof serverHitSchema>;

/** The body of POST /api/hits holding many hits: `{ "hits": [...] }`. */
export const serverBatchSchema = z.strictObject({
  hits: z
    .array(serverHitSchema, { error: 'must be an array of hits' })
    .min(1, 'must hold at least one hit')
    .max(INGEST_LIMITS.maxHits, `must hold at most ${INGEST_LIMITS.maxHits} hits`),
});

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
  })
  .refine((body) => body.status !== true || Boolean(body.subject), {
    path: ['status'],
    message: 'needs a subject: only a scan of a subject has a status',
  });

export type BeaconBody = z.infer<typeof beaconBodySchema>;
