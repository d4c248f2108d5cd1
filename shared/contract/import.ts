import { z } from 'zod';
import { servedByFields } from './hits';

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

/** RFC 1035. */
const MAX_HOST_LENGTH = 253;

/** Length refuses nothing but the body, as on POST /api/hits: a log holds what its clients sent. */
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
  ...servedByFields,
});

export type ImportHit = z.infer<typeof importHitSchema>;

const names = (key: z.ZodString) =>
  z
    .record(key, count)
    .refine((named) => Object.keys(named).length <= IMPORT_LIMITS.maxNames, `must name at most ${IMPORT_LIMITS.maxNames}`)
    .optional();

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
