import { z } from 'zod';

/** The bounds of one import request: a request over them is refused whole. */
export const IMPORT_LIMITS = {
  maxHits: 1_000,
  maxDays: 400,
  maxBodyBytes: 1024 * 1024,
  /** Names one imported day's pages, sources or countries may list. */
  maxNames: 1_000,
} as const;

const day = z.iso.date({ error: 'must be a day, yyyy-MM-dd' }).refine((value) => value >= '1990-01-01', 'must not be before 1990');

const count = z.number({ error: 'must be a number' }).int('must be a whole number').min(0, 'must not be negative').max(1e12);

const requiredText = (max: number) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`);

/** The longest host name (RFC 1035); a longer `host` names no host. */
const MAX_HOST_LENGTH = 253;

/**
 * One request read from a log, as the import command sends it: the address and the agent travel no further than the
 * endpoint, which classifies and hashes them as POST /api/hits does. `user_agent` absent or null: the log records no
 * agent (the common log format). `method` and `status` as logged: methods other than GET and HEAD, and redirects, are
 * not counted. `host`: the virtual host the request was for, when the log names it (a referrer from it is navigation
 * inside the site, not a source).
 *
 * Length refuses nothing but the request's body, as on POST /api/hits: a log holds what its clients sent (a scanner's
 * probe of 10,000 characters), and such a line is taken as the live edge takes it. The path is judged as it is kept
 * (its query dropped but for the campaign tags, cut to 512: keptPath, at the endpoint); the agent's first 1024
 * characters and the referrer's first 2048 are read, as on /api/hits; a host longer than any host is not read.
 */
export const importHitSchema = z.strictObject({
  at: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time with a zone, like 2026-10-23T10:00:00Z' }),
  address: requiredText(64),
  user_agent: z
    .string({ error: 'must be a string' })
    .transform((value) => value.slice(0, 1024))
    .nullish(),
  method: z
    .string()
    .regex(/^[A-Za-z_-]{1,24}$/, 'must be an HTTP method')
    .optional(),
  path: z.string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') }).min(1, 'must not be empty'),
  status: z.number().int().min(100, 'must be an HTTP status').max(999, 'must be an HTTP status').optional(),
  referrer: z
    .string({ error: 'must be a string' })
    .transform((value) => value.slice(0, 2048))
    .nullish(),
  host: z
    .string({ error: 'must be a string' })
    .transform((value) => (value.length > MAX_HOST_LENGTH ? null : value))
    .nullish(),
  store: z
    .string()
    .regex(/^[a-z0-9-]{1,32}$/, 'must be 1 to 32 lowercase letters, digits or -')
    .default('site'),
});

export type ImportHit = z.infer<typeof importHitSchema>;

const names = (key: z.ZodString) =>
  z
    .record(key, count)
    .refine((named) => Object.keys(named).length <= IMPORT_LIMITS.maxNames, `must name at most ${IMPORT_LIMITS.maxNames}`)
    .optional();

/** One day's totals from another tool's export (Plausible's CSV): its daily visitors, and where present its pages, sources and countries. */
export const importedDaySchema = z.strictObject({
  day,
  source: z
    .string()
    .regex(/^[a-z0-9-]{1,32}$/, 'must be 1 to 32 lowercase letters, digits or -')
    .default('plausible'),
  visitors: count,
  pageviews: count.nullish(),
  visits: count.nullish(),
  pages: names(z.string().max(2048)),
  sources: names(z.string().max(256)),
  countries: names(z.string().regex(/^[A-Za-z]{2}$/, 'must be two-letter country codes')),
});

export type ImportedDay = z.infer<typeof importedDaySchema>;

/**
 * The body of POST /api/import: a batch of log requests (`hits`), or of a tool's daily totals (`days`), or neither (the
 * import's window only); `until`, the last day to take (default: the day before the first day counted live).
 */
export const importBodySchema = z
  .strictObject({
    until: day.optional(),
    hits: z
      .array(importHitSchema, { error: 'must be an array of hits' })
      .max(IMPORT_LIMITS.maxHits, `must hold at most ${IMPORT_LIMITS.maxHits} hits`)
      .optional(),
    days: z
      .array(importedDaySchema, { error: 'must be an array of days' })
      .max(IMPORT_LIMITS.maxDays, `must hold at most ${IMPORT_LIMITS.maxDays} days`)
      .optional(),
  })
  .refine((body) => !(body.hits && body.hits.length > 0 && body.days && body.days.length > 0), {
    path: ['days'],
    message: 'a request carries hits or days, not both',
  });

export type ImportBody = z.infer<typeof importBodySchema>;
