import { z } from 'zod';
import type { Filter } from '../../core/rollup/filters';
import { filtersSchema } from './filters';
import { siteQuerySchema } from '../../core/sites/sites';

/** The longest window the Activity card reads, in days, and the one it reads when none is asked for. */
export const MAX_DAYS = 400;
export const DEFAULT_DAYS = 30;

const daysMessage = `must be a whole number of days from 1 to ${MAX_DAYS}, or all`;

const utcDayText = (name: string) => z.iso.date({ error: () => `must be a UTC day as YYYY-MM-DD, like 2026-10-23 (${name})` }).optional();

/** The period the Activity card reads: the last N days, every day since the first kept, or a range of days. */
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
