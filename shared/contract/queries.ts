import { z } from 'zod';
import { daySpan } from '../core/days';
import { DIMENSIONS, keptValue, type Dimension } from '../core/dimensions';
import { cellFilter, type Filter } from '../core/rollup/filters';
import { siteQuerySchema } from '../core/sites/sites';
import { SUBJECT_SORTS } from '../core/store/subjects';
import { wholeNumberText } from '../core/whole-number';

// Every read's query as its route takes it: the use cases in shared/read take what these give.

/** How many filters one read takes, and how long one may be. */
const MOST_FILTERS = 10;
const LONGEST_FILTER = 1_024;

const shape = `each filter is dimension:value (or !dimension:value for "is not"), the dimension one of ${DIMENSIONS.join(', ')}`;

function filterOf(text: string): Filter | string {
  const negated = text.startsWith('!');
  const body = negated ? text.slice(1) : text;
  const colon = body.indexOf(':');
  if (colon < 0) return `"${text.slice(0, 60)}" has no ':': ${shape}`;
  const dimension = body.slice(0, colon);
  const value = body.slice(colon + 1);
  if (!(DIMENSIONS as readonly string[]).includes(dimension)) return `"${dimension.slice(0, 40)}" is not a dimension: ${shape}`;
  if (value.length === 0) return `${dimension} has no value: ${shape}`;
  if (text.length > LONGEST_FILTER) return `must be at most ${LONGEST_FILTER} characters each`;
  return { dimension: dimension as Dimension, value: keptValue(dimension as Dimension, value), negated };
}

/** AND-ed, split at the first ':', a leading '!' for "is not". */
export const filtersSchema = z
  .array(z.string())
  .optional()
  .transform((texts, context) => {
    const filters: Filter[] = [];
    if ((texts?.length ?? 0) > MOST_FILTERS) context.addIssue({ code: 'custom', message: `takes at most ${MOST_FILTERS} filters` });
    for (const text of texts ?? []) {
      const read = filterOf(text);
      if (typeof read === 'string') context.addIssue({ code: 'custom', message: read });
      // The same filter twice is one filter.
      else if (
        !filters.some((filter) => filter.dimension === read.dimension && filter.value === read.value && filter.negated === read.negated)
      )
        filters.push(read);
    }
    return filters;
  });

/** The longest window the period report reads, in days, and the one it reads when none is asked for. */
export const MAX_DAYS = 400;
export const DEFAULT_DAYS = 30;

const daysMessage = `must be a whole number of days from 1 to ${MAX_DAYS}, or all`;

const utcDayText = (name: string) => z.iso.date({ error: () => `must be a UTC day as YYYY-MM-DD, like 2026-10-23 (${name})` }).optional();

/** The period the period report reads: the last N days, every day since the first kept, or a range of days. */
export type Period = { kind: 'days'; days: number } | { kind: 'all' } | { kind: 'range'; from: string; to: string };

/** A read of the card or the export: its period and its filters (none: every visitor-day). */
export interface CardQuery {
  period: Period;
  filters: Filter[];
}

/** Other parameters, such as a cache-buster, are let be. */
export const activityQuerySchema = z
  .object({
    days: z
      .union(
        [
          z.literal('all'),
          z.string().regex(/^\d+$/, daysMessage).transform(Number).pipe(z.number().min(1, daysMessage).max(MAX_DAYS, daysMessage)),
        ],
        {
          error: daysMessage,
        },
      )
      .optional(),
    from: utcDayText('from'),
    to: utcDayText('to'),
    filter: filtersSchema,
    site: siteQuerySchema,
  })
  .superRefine((query, context) => {
    const range = query.from !== undefined || query.to !== undefined;
    if (range && query.days !== undefined)
      context.addIssue({ code: 'custom', path: ['days'], message: 'is not taken with from and to: ask one or the other' });
    else if (query.from !== undefined && query.to === undefined)
      context.addIssue({ code: 'custom', path: ['to'], message: 'is required with from' });
    else if (query.to !== undefined && query.from === undefined)
      context.addIssue({ code: 'custom', path: ['from'], message: 'is required with to' });
    else if (query.from !== undefined && query.to !== undefined && query.from > query.to)
      context.addIssue({ code: 'custom', path: ['from'], message: 'must be on or before to' });
  })
  .transform((query): CardQuery => ({ period: periodOf(query), filters: query.filter }));

/** The period asked: a range, every day, or the last N days. */
function periodOf(query: { days?: number | 'all'; from?: string; to?: string }): Period {
  if (query.from !== undefined && query.to !== undefined) return { kind: 'range', from: query.from, to: query.to };
  return query.days === 'all' ? { kind: 'all' } : { kind: 'days', days: query.days ?? DEFAULT_DAYS };
}

/** GET /api/admin/activity/visitors's query: `day`, a real UTC calendar day, required; `next`, the page after. */
export const visitorsQuerySchema = z.object({
  day: z.iso.date({
    error: (issue) =>
      issue.input === undefined ? 'is required, as YYYY-MM-DD (a UTC day)' : 'must be a UTC day as YYYY-MM-DD, like 2026-10-23',
  }),
  next: z
    .string()
    .max(512, 'must be the next token of the page before, as it was given')
    .regex(/^[A-Za-z0-9_-]+$/, 'must be the next token of the page before, as it was given')
    .optional(),
  site: siteQuerySchema,
});

/** The most months a read asks for, and how many it asks for when it does not say. */
export const MOST_MONTHS = 36;
export const DEFAULT_MONTHS = 12;

/** The cells are kept for one value each. */
export const ONE_FILTER = 'retention takes one filter, dimension:value (not negated)';

export const retentionQuerySchema = z.object({
  site: siteQuerySchema,
  months: z.coerce.number().int().min(1).max(MOST_MONTHS).default(DEFAULT_MONTHS),
  filter: filtersSchema.refine((filters) => filters.length === 0 || cellFilter(filters) !== null, { message: ONE_FILTER }),
});

const day = (name: string) =>
  z.iso
    .date({
      error: (issue) =>
        issue.input === undefined ? 'is required, as YYYY-MM-DD (a UTC day)' : `must be a UTC day as YYYY-MM-DD, like 2026-10-23`,
    })
    .describe(name);

export const exportQuerySchema = z
  .object({
    from: day('from'),
    to: day('to'),
    format: z.enum(['csv', 'json'], { error: 'must be csv or json' }).default('json'),
    filter: filtersSchema,
    site: siteQuerySchema,
  })
  .superRefine((query, context) => {
    if (query.from > query.to) context.addIssue({ code: 'custom', path: ['from'], message: 'must be on or before to' });
    else if (daySpan(query.from, query.to) > MAX_DAYS)
      context.addIssue({ code: 'custom', path: ['to'], message: `must be at most ${MAX_DAYS} days from from, both included` });
  });

export const listQuerySchema = z.strictObject({
  sort: z.enum(SUBJECT_SORTS, `must be one of ${SUBJECT_SORTS.join(', ')}`).default('last_scan'),
  order: z.enum(['asc', 'desc'], 'must be asc or desc').default('desc'),
  limit: wholeNumberText(1, 200, 50),
  continuation: z.string().min(1, 'must not be empty').max(4096, 'must be at most 4096 characters').optional(),
  site: siteQuerySchema,
});

export const detailQuerySchema = z.strictObject({
  days: wholeNumberText(1, 366, 30),
  site: siteQuerySchema,
});

export const linkBodySchema = z.strictObject({
  site: z.string().max(253).optional(),
  label: z.string().max(80, 'must be at most 80 characters').default(''),
  filters: z.array(z.string().max(300)).max(10, 'must be at most 10 filters').default([]),
  days: z.string().max(8).nullish(),
  expires_at: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time with a zone' }).nullish(),
  password: z.string().min(8, 'must be at least 8 characters').max(200, 'must be at most 200 characters').nullish(),
});
