import { z } from 'zod';
import { keptPath } from '../core/identity/paths';
import { eventNameSchema, propsSchema, PROPS_LIMITS } from '../core/events/events';
import { siteNameSchema } from '../core/sites/sites';

/** Nothing else refuses a hit for its length: a long field is cut to what is kept. */
export const INGEST_LIMITS = {
  maxHits: 500,
  maxHitsBodyBytes: 512 * 1024,
  maxBeaconBodyBytes: 4 * 1024,
  maxFutureMs: 5 * 60 * 1000,
} as const;

const subject = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, - or _');

export const subjectSchema = subject;

const servedBy = z.string().regex(/^[a-z0-9-]{1,32}$/, 'must be 1 to 32 lowercase letters, digits or -');

/** The server that served a hit: `served_by`, or `store`, its first name, which senders may still send. */
export const servedByFields = {
  served_by: servedBy.optional(),
  store: servedBy.optional().meta({ description: 'The first name of `served_by`, still taken; `served_by` wins.' }),
};

export const servedByOf = (hit: { served_by?: string | undefined; store?: string | undefined }): string =>
  hit.served_by ?? hit.store ?? 'site';

// `overwrite`, not `transform`: a transform is a pipe zod runs apart, which made checking a hit several times slower.
const pathField = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
  .min(1, 'must not be empty')
  .overwrite(keptPath);

// Only the referrer's host is ever read (on a page load), and a host is at most 253 characters: the rest is cut.
const referrer = z
  .string({ error: 'must be a string' })
  .overwrite((value) => value.slice(0, 2048))
  .nullish();

/** Only the signal headers are read: any other header is ignored, never refused. */
const forwardedHeaders = z.record(z.string(), z.unknown(), { error: 'must be an object of header names and values' });

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
    ...servedByFields,
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

export const serverBatchSchema = z.strictObject({
  hits: z
    .array(serverHitSchema, { error: 'must be an array of hits' })
    .min(1, 'must hold at least one hit')
    .max(INGEST_LIMITS.maxHits, `must hold at most ${INGEST_LIMITS.maxHits} hits`),
});

/** A value that could carry a person is dropped later, not here. */
const beaconProps = z
  .record(z.string().regex(/^[a-z][a-z0-9_]{0,31}$/, 'keys must be lowercase letters, digits or _'), z.string().max(PROPS_LIMITS.value))
  .refine((props) => Object.keys(props).length <= PROPS_LIMITS.count, `must hold at most ${PROPS_LIMITS.count} props`);

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
